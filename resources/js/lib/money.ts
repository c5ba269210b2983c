/**
 * The server's money module, shared: amounts are integer µSTX (bigint), and
 * STX typed by a person is parsed without floats, by the same code.
 */
export { formatStx, parseStx, MICROSTX_PER_STX } from '../../../app/ledger/money'

import { formatStx } from '../../../app/ledger/money'

/** An API amount (µSTX as a JSON integer) in STX words: 2500000 → "2.5 STX". */
export function stx(microstx: number | string | bigint) {
  return `${formatStx(BigInt(microstx))} STX`
}
