import { tryParseQuantity } from '../../core/quantity';

/**
 * Size conversions between Kubernetes quantities and what QEMU and the Jumpstarter QEMU driver read.
 * QEMU reads `G` as GiB and a bare number of memory as MiB, so a quantity is never copied blindly.
 */

const QEMU_UNITS: readonly [string, number][] = [
  ['T', 2 ** 40],
  ['G', 2 ** 30],
  ['M', 2 ** 20],
  ['K', 2 ** 10],
];
const KUBE_UNITS: readonly [string, number][] = [
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
];
const BINARY_TO_QEMU: Readonly<Record<string, string>> = { Ki: 'K', Mi: 'M', Gi: 'G', Ti: 'T' };

/**
 * A quantity as a QEMU / qemu-img size: a whole number with a binary suffix keeps its number and drops
 * the `i` (`16Gi` → `16G`, `512Mi` → `512M`, `2Ti` → `2T`); every other form (bare bytes, decimal
 * suffixes, exponents, fractions, `Pi`/`Ei`) becomes its exact byte count in the largest whole unit
 * (`16G` = 16·10⁹ bytes → `15625000K`; `1.5Gi` → `1536M`; an odd byte count → `<n>B`).
 * Undefined when the input is not a positive quantity.
 */
export function toQemuSize(quantity: unknown): string | undefined {
  const parsed = tryParseQuantity(quantity);
  if (!parsed || !(parsed.value > 0)) return undefined;
  const qemuSuffix = BINARY_TO_QEMU[parsed.suffix];
  if (qemuSuffix !== undefined && /^\+?[0-9]+$/.test(parsed.number)) {
    return `${BigInt(parsed.number.replace('+', ''))}${qemuSuffix}`;
  }
  return inLargestUnit(Math.ceil(parsed.value), QEMU_UNITS, 'B');
}

/** Bytes as a Kubernetes quantity in the largest binary unit that divides them (`17284726784` → `16484Mi`). */
export function bytesToQuantity(bytes: number): string {
  return inLargestUnit(Math.ceil(bytes), KUBE_UNITS, '');
}

/** The amount in base units (bytes, cores) of a quantity, or undefined when it is not one. */
export function quantityValue(quantity: unknown): number | undefined {
  return tryParseQuantity(quantity)?.value;
}

function inLargestUnit(bytes: number, units: readonly [string, number][], fallback: string): string {
  for (const [suffix, factor] of units) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return `${bytes}${fallback}`;
}
