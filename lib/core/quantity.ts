/**
 * Kubernetes resource quantities (`4`, `500m`, `8Gi`, `1.5G`, `2e3`), as the API server accepts them.
 * Values are returned as JavaScript numbers: exact for every size a lab will ask for.
 */

const QUANTITY = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))((?:[KMGTPE]i)|[numkMGTPE]|(?:[eE][+-]?[0-9]+))?$/;

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

export interface ParsedQuantity {
  /** The amount in base units (bytes for memory and storage, cores for cpu). */
  readonly value: number;
  readonly number: string;
  /** `''`, a binary suffix (`Gi`), a decimal suffix (`G`, `m`) or an exponent (`e3`). */
  readonly suffix: string;
}

/** Parses a quantity; returns undefined when it is not one. */
export function tryParseQuantity(input: unknown): ParsedQuantity | undefined {
  if (typeof input === 'number') {
    return Number.isFinite(input) ? { value: input, number: String(input), suffix: '' } : undefined;
  }
  if (typeof input !== 'string') return undefined;
  const m = QUANTITY.exec(input);
  if (!m) return undefined;
  const number = m[1];
  const suffix = m[2] ?? '';
  let factor = 1;
  if (suffix in BINARY) factor = BINARY[suffix];
  else if (suffix in DECIMAL) factor = DECIMAL[suffix];
  else if (suffix) factor = 10 ** Number(suffix.slice(1));
  const value = Number(number) * factor;
  return Number.isFinite(value) ? { value, number, suffix } : undefined;
}

/** Parses a quantity or throws an error that names the value and shows valid forms. */
export function parseQuantity(input: unknown): number {
  const parsed = tryParseQuantity(input);
  if (!parsed) {
    throw new Error(
      `${JSON.stringify(input)} is not a Kubernetes quantity; use a number with an optional suffix such as 4, 500m, 8Gi or 16G`,
    );
  }
  return parsed.value;
}

export function isQuantity(input: unknown): boolean {
  return tryParseQuantity(input) !== undefined;
}
