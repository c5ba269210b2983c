import { creditBalanceView } from '#credit/credit_balance'
import type { StatementLine } from '#credit/credit_statement'
import { encodeStatementCursor } from '#credit/statement_validator'
import { formatStx, type Microstx } from '#ledger/money'

/** The JSON of a statement line: µSTX as a signed integer (+ adds to the credit). */
function lineView(line: StatementLine) {
  const common = {
    kind: line.kind,
    amount_microstx: Number(line.amount),
    amount_stx: formatStx(line.amount),
    at: line.at.toISOString(),
  }
  switch (line.kind) {
    case 'top_up':
      return { ...common, tx_hash: `0x${line.txid}` }
    case 'call':
      return { ...common, call_id: line.callId, feed_id: line.feedId, resource: line.resource }
    case 'refund':
    case 'refund_reversal':
      return {
        ...common,
        refund_id: line.refundId,
        status: line.status,
        tx_hash: line.txid ? `0x${line.txid}` : null,
      }
  }
}

/**
 * GET /credit/statement's answer: `pagination.limit` is the page size asked
 * (or the default), `pagination.cursor` asks for the next (older) page.
 */
export function statementView(
  address: string,
  statement: { balance: Microstx; limit: number; lines: StatementLine[]; more: boolean }
) {
  const last = statement.lines.at(-1)
  return {
    ...creditBalanceView(address, statement.balance),
    lines: statement.lines.map(lineView),
    pagination: {
      limit: statement.limit,
      cursor: statement.more && last ? encodeStatementCursor(last.id) : null,
    },
  }
}
