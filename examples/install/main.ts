// The second step of `npm run synth`: writes dist/install.yaml, dist/monitoring.yaml and
// dist/kustomization.yaml (see app.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installFiles } from './app';

const out = path.resolve(process.argv[2] ?? 'dist');
fs.mkdirSync(out, { recursive: true });
for (const [name, text] of Object.entries(installFiles())) fs.writeFileSync(path.join(out, name), text);
