import * as path from 'node:path';
import { generateImports } from './generate-imports';

const root = path.resolve(__dirname, '..');
for (const file of generateImports(root, path.join(root, 'imports'))) {
  console.log(`wrote ${path.relative(root, file)}`);
}
