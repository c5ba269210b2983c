import type { Block, TxRecord, TxStatus } from './chain_state.js'

/**
 * The devnet's block explorer, one page per transaction (`GET /txid/0x<txid>`):
 * the public explorers do not know a local chain's transactions, so the
 * service's explorer links point here on the devnet. A small HTML page with
 * no scripts and no external assets, readable on a phone.
 */

const STATUS_LABELS: Record<TxStatus, string> = {
  pending: 'pending',
  success: 'confirmed',
  abort_by_response: 'failed (aborted: the transfer did not happen, the fee was paid)',
  dropped_replace_by_fee: 'dropped (replaced by another transaction with the same nonce)',
}

const MICROSTX_PER_STX = 1_000_000n

/** Allows the page's one inline style sheet, nothing else. */
export const PAGE_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'x-content-type-options': 'nosniff',
}

export function transactionPage(record: TxRecord, tip: Block): string {
  const { tx, block } = record
  const txid = `0x${tx.txid}`
  const rows: [name: string, html: string][] = [
    ['Status', escapeHtml(STATUS_LABELS[record.status])],
    [
      'Block',
      block
        ? `${block.height} (${confirmations(tip.height - block.height + 1)})`
        : `not mined yet (chain tip: ${tip.height})`,
    ],
    ['Sender', escapeHtml(tx.sender)],
    ['Recipient', escapeHtml(tx.recipient)],
    ['Amount', `${stx(tx.amount)} STX (${tx.amount} µSTX)`],
    ['Fee', `${stx(tx.fee)} STX (${tx.fee} µSTX)`],
    ['Nonce', tx.nonce.toString()],
    ['Memo', escapeHtml(memoText(tx.memoHex))],
  ]
  if (record.replacedBy) {
    const replacement = `0x${record.replacedBy}`
    rows.push(['Replaced by', `<a href="/txid/${replacement}">${replacement}</a>`])
  }
  return page(
    `Transaction ${txid}`,
    `<h1>STX transfer</h1>
<p class="txid">${txid}</p>
<dl>
${rows.map(([name, html]) => `<dt>${name}</dt><dd>${html}</dd>`).join('\n')}
</dl>
<p><a href="/extended/v1/tx/${txid}">As JSON (Hiro API)</a></p>`
  )
}

export function transactionNotFoundPage(rawTxid: string): string {
  return page(
    'Transaction not found',
    `<h1>Transaction not found</h1>
<p class="txid">${escapeHtml(rawTxid)}</p>
<p>This devnet has never received a transaction with this id. A devnet that started over
(a new chain) no longer knows the transactions of the previous one.</p>`
  )
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Tollbooth devnet</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 48rem; padding: 1rem;
  color: #1a1a1a; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 0.25rem; }
.txid, dd { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; }
dt { font-weight: 600; }
dd { margin: 0; }
footer { margin-top: 2rem; color: #4a4a4a; font-size: 0.9rem; }
a { color: #0b57d0; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 0.5rem; } }
</style>
</head>
<body>
<main>
${body}
</main>
<footer>The local Stacks devnet (<code>@tollbooth/devnet</code>): test money only.</footer>
</body>
</html>
`
}

function confirmations(count: number): string {
  return count === 1 ? '1 confirmation' : `${count} confirmations`
}

/** µSTX as STX, e.g. 5000n → "0.005". */
function stx(microstx: bigint): string {
  const whole = microstx / MICROSTX_PER_STX
  const fraction = (microstx % MICROSTX_PER_STX).toString().padStart(6, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole.toString()
}

/** The memo as text (its 34 bytes, zero padding dropped), or "none". */
function memoText(memoHex: string): string {
  const text = Buffer.from(memoHex, 'hex').toString('utf8').replace(/\0+$/, '')
  return text === '' ? '(none)' : text
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}
