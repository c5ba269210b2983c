/**
 * Money is integer µSTX (bigint) end to end; this module is the only place
 * that parses and formats it. 1 STX = 1,000,000 µSTX.
 */
export type Microstx = bigint

export const MICROSTX_PER_STX = 1_000_000n

/** 5000n → "0.005"; 1_000_000n → "1". No floats involved. */
export function formatStx(amount: Microstx): string {
  const sign = amount < 0n ? '-' : ''
  const absolute = amount < 0n ? -amount : amount
  const whole = absolute / MICROSTX_PER_STX
  const fraction = (absolute % MICROSTX_PER_STX).toString().padStart(6, '0').replace(/0+$/, '')
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`
}

/** For JSON fields the spec types as numbers (price_stx): exact for every price we allow. */
export function stxNumber(amount: Microstx): number {
  return Number(formatStx(amount))
}

/** A bigint column as node-postgres returns it (a decimal string). */
export function parseMicrostx(value: string | number | bigint): Microstx {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value)
  throw new TypeError(`not an integer µSTX amount: ${String(value)}`)
}

const STX_DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/

/**
 * A price a person typed, in STX: a decimal string ("0.005") or a JSON number
 * (0.005), at most 6 decimals → µSTX, or null. Numbers go through their
 * shortest decimal form, so no float arithmetic touches the amount.
 */
export function parseStx(value: string | number): Microstx | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value
  const match = STX_DECIMAL.exec(text.trim())
  if (!match) return null
  const [, whole, fraction = ''] = match
  return BigInt(whole) * MICROSTX_PER_STX + BigInt(fraction.padEnd(6, '0'))
}

/** Lucid column options for a bigint µSTX column (`@column(microstxColumn)`). */
export const microstxColumn = {
  consume: (value: string | number | bigint) => parseMicrostx(value),
  prepare: (value: Microstx) => value.toString(),
}
