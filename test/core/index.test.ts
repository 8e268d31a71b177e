import { describe, expect, it } from '@jest/globals';
import * as core from '../../lib/core';
import * as drivers from '../../lib/core/drivers';
import * as duration from '../../lib/core/duration';
import * as issue from '../../lib/core/issue';
import * as issueCollector from '../../lib/core/issue-collector';
import * as merge from '../../lib/core/merge';
import * as names from '../../lib/core/names';
import * as path from '../../lib/core/path';
import * as quantity from '../../lib/core/quantity';
import * as revision from '../../lib/core/revision';
import * as selector from '../../lib/core/selector';
import * as validateExporterSet from '../../lib/core/validate-exporter-set';
import * as validateImages from '../../lib/core/validate-images';
import * as validateObjectMeta from '../../lib/core/validate-object-meta';
import * as validateReferences from '../../lib/core/validate-references';
import * as validateScheduling from '../../lib/core/validate-scheduling';
import * as validateVirtualTargetClass from '../../lib/core/validate-virtual-target-class';

const modules = {
  drivers,
  duration,
  issue,
  issueCollector,
  merge,
  names,
  path,
  quantity,
  revision,
  selector,
  validateExporterSet,
  validateImages,
  validateObjectMeta,
  validateReferences,
  validateScheduling,
  validateVirtualTargetClass,
};

describe('lib/core index', () => {
  it.each(Object.entries(modules))('re-exports everything %s exports', (_name, module) => {
    for (const [name, value] of Object.entries(module)) {
      expect([name, (core as Record<string, unknown>)[name]]).toEqual([name, value]);
    }
  });
});
