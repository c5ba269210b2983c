/** µSTX in one STX. */
export const MICROSTX_PER_STX = 1_000_000n

/** µSTX as a decimal STX string without trailing zeros: 5000n → "0.005". */
export function formatStx(microstx: bigint): string {
  const sign = microstx < 0n ? '-' : ''
  const abs = microstx < 0n ? -microstx : microstx
  const fraction = (abs % MICROSTX_PER_STX).toString().padStart(6, '0').replace(/0+$/, '')
  return `${sign}${abs / MICROSTX_PER_STX}${fraction ? `.${fraction}` : ''}`
}
