import * as fs from 'node:fs';
import * as path from 'node:path';
import { API_REFERENCE_FILE, renderApiReference } from './generate-api-docs';

const root = path.resolve(__dirname, '..');
const file = path.join(root, API_REFERENCE_FILE);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, renderApiReference());
console.log(`wrote ${API_REFERENCE_FILE}`);
