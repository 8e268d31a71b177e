import { it } from '@jest/globals';
import { exporterCrd, exporterSetCrd, leaseCrd, virtualTargetClassCrd } from '../../lib/crds';
import { estimateCrd, totalCost } from '../support/cel-cost';
it('scratch', () => {
  for (const crd of [exporterSetCrd, virtualTargetClassCrd, exporterCrd, leaseCrd]) {
    const est = estimateCrd(crd);
    const lines = [`== ${crd.spec.names.kind} total ${totalCost(est)}`];
    for (const e of est)
      lines.push(
        `${e.location} | ${e.rule.slice(0, 60)} | cost ${e.cost} iter ${e.iterations} card ${e.cardinality} | ranges ${JSON.stringify(e.ranges)} | unbounded ${JSON.stringify(e.unbounded)}`,
      );
    console.log(lines.join('\n'));
  }
});
