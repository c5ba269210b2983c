import { useCallback, useEffect, useState } from 'preact/hooks'
import type { CreditPageProps } from '../../../app/web/page_context'
import { Metric, Notice, Problem, Spinner, StxAmountField, useAction } from '../dashboard/ui'
import { api } from '../lib/api'
import { shortAddress, when } from '../lib/format'
import { formatStx, parseStx, stx } from '../lib/money'
import { site } from '../lib/site'
import { useSession } from '../lib/use_session'
import { signIn, signMessage } from '../lib/wallet'

/** GET /credit/statement's answer (docs/credit.md#balance-and-statement). */
interface StatementLine {
  kind: 'top_up' | 'call' | 'refund' | 'refund_reversal'
  amount_microstx: number
  amount_stx: string
  at: string
  tx_hash?: string | null
  resource?: string
  status?: string
}

interface Statement {
  balance_microstx: number
  lines: StatementLine[]
  pagination: { cursor: string | null }
}

interface Refund {
  id: string
  status: 'pending' | 'broadcast' | 'confirmed' | 'failed'
  amount_stx: string
  explorer_url: string | null
  failure_reason: string | null
}

const LINE_WORDS: Record<StatementLine['kind'], string> = {
  top_up: 'Top-up',
  call: 'Call',
  refund: 'Refund',
  refund_reversal: 'Refund failed: credit restored',
}

/**
 * /credit: the signed-in wallet's prepaid credit — its balance, its
 * statement and a refund to the wallet, which the wallet signs (the session
 * only reads).
 */
export default function Credit(props: CreditPageProps) {
  const session = useSession()
  if (!session) return <SignInCard />
  return (
    <WalletCredit address={session.walletAddress} minimum={BigInt(props.refundMinimumMicrostx)} />
  )
}

function SignInCard() {
  const { run, busy, error } = useAction(() => signIn())
  return (
    <div class="card card-centered">
      <h1>Your credit</h1>
      <p class="muted">
        Sign in with the wallet that bought credit to see its balance and statement and to refund
        what is left. Signing in pays nothing.
      </p>
      <Problem error={error} />
      <button type="button" class="btn btn-primary" onClick={() => run()} disabled={busy}>
        {busy ? 'Signing in…' : 'Connect wallet and sign in'}
      </button>
    </div>
  )
}

function WalletCredit({ address, minimum }: { address: string; minimum: bigint }) {
  const [statement, setStatement] = useState<Statement | null>(null)
  const [older, setOlder] = useState<StatementLine[]>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [refund, setRefund] = useState<Refund | null>(null)
  const load = useAction(async () => {
    const first = await api<Statement>('/credit/statement')
    setStatement(first)
    setOlder([])
    setCursor(first.pagination.cursor)
  })
  const more = useAction(async () => {
    if (!cursor) return
    const page = await api<Statement>(`/credit/statement?cursor=${encodeURIComponent(cursor)}`)
    setOlder((lines) => [...lines, ...page.lines])
    setCursor(page.pagination.cursor)
  })
  const reload = useCallback(() => load.run(), [load.run])

  useEffect(() => {
    reload()
  }, [address, reload])

  const unsettled =
    refund !== null && (refund.status === 'pending' || refund.status === 'broadcast')
  useEffect(() => {
    if (!unsettled || !refund) return
    const timer = setInterval(async () => {
      const shown = await api<{ refund: Refund }>(`/credit/refunds/${refund.id}`)
      setRefund(shown.refund)
      if (shown.refund.status !== refund.status) reload()
    }, site().polls.withdrawalMs)
    return () => clearInterval(timer)
  }, [unsettled, refund, reload])

  if (!statement) {
    return (
      <div class="card card-centered">
        <h1>Your credit</h1>
        {load.error ? <Problem error={load.error} /> : <Spinner />}
      </div>
    )
  }
  const balance = BigInt(statement.balance_microstx)
  const lines = [...statement.lines, ...older]
  return (
    <div class="stack">
      <div class="page-head">
        <div>
          <p class="eyebrow">Prepaid credit</p>
          <h1>Your credit</h1>
          <p>
            Wallet <span class="mono">{shortAddress(address)}</span>. Credit pays for calls without
            a transaction each; what is left goes back to this wallet when you ask.
          </p>
        </div>
      </div>
      <section class="metrics" aria-label="Balance">
        <Metric label="Credit (refundable)" value={stx(balance)} money testid="credit-balance" />
      </section>
      <RefundForm
        address={address}
        balance={balance}
        minimum={minimum}
        onRefund={(made) => {
          setRefund(made)
          reload()
        }}
      />
      {refund && <RefundStatus refund={refund} />}
      <section class="card" aria-labelledby="statement-title">
        <h2 id="statement-title">Statement</h2>
        {lines.length === 0 ? (
          <p class="muted">No top-ups, calls or refunds yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="statement">
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {lines.map((line, index) => (
                  <tr key={index}>
                    <td>
                      {LINE_WORDS[line.kind]}
                      {line.resource && <span class="mono small resource"> {line.resource}</span>}
                      {line.kind === 'refund' && line.status && (
                        <span class="muted small"> ({line.status})</span>
                      )}
                      <time class="muted small" dateTime={line.at}>
                        {when(line.at)}
                      </time>
                    </td>
                    <td class="num mono">
                      {line.amount_microstx < 0 ? '' : '+'}
                      {line.amount_stx} STX
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Problem error={more.error} />
        {cursor && (
          <button type="button" class="btn" onClick={() => more.run()} disabled={more.busy}>
            {more.busy ? 'Loading…' : 'Older'}
          </button>
        )}
      </section>
    </div>
  )
}

function RefundForm(props: {
  address: string
  balance: bigint
  minimum: bigint
  onRefund: (refund: Refund) => void
}) {
  const [amount, setAmount] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const send = useAction(async (microstx: bigint) => {
    const challenge = await api<{ message: string }>('/credit/refunds/nonce', {
      method: 'POST',
      body: { address: props.address, amount_stx: formatStx(microstx) },
      auth: false,
    })
    const { signature } = await signMessage(challenge.message)
    const { refund } = await api<{ refund: Refund }>('/credit/refunds', {
      method: 'POST',
      body: { message: challenge.message, signature },
      auth: false,
    })
    setAmount('')
    props.onRefund(refund)
  })

  const submit = (event: Event) => {
    event.preventDefault()
    const microstx = parseStx(amount)
    const words =
      microstx === null
        ? 'Enter an amount in STX, like 2.5 (at most 6 decimals).'
        : microstx < props.minimum && microstx !== props.balance
          ? `The smallest refund is ${stx(props.minimum)}, or your whole credit.`
          : microstx > props.balance
            ? `That is more than your credit (${stx(props.balance)}).`
            : null
    setProblem(words)
    if (words || microstx === null) return
    send.run(microstx)
  }

  // Below the smallest refund only the whole credit can go back: "from 0.1 STX to 0.05 STX" says nothing.
  const range =
    props.balance < props.minimum
      ? `Your whole credit (${stx(props.balance)}) only, as it is below the smallest refund (${stx(props.minimum)}),`
      : `From ${formatStx(props.minimum)} STX (or less, when it is your whole credit) to your credit (${stx(props.balance)}),`
  return (
    <section class="card" aria-labelledby="refund-title">
      <h2 id="refund-title">Refund to your wallet</h2>
      {props.balance === 0n ? (
        <p class="muted">Nothing to refund.</p>
      ) : (
        <form onSubmit={submit}>
          <StxAmountField
            id="refund-amount"
            hint={`${range} sent to ${shortAddress(props.address)}. Your wallet signs the amount and the address; the platform pays the network fee.`}
            problem={problem}
            value={amount}
            onValue={setAmount}
          />
          <Problem error={send.error} />
          <div class="row">
            <button type="submit" class="btn btn-primary" disabled={send.busy}>
              {send.busy ? 'Waiting for your wallet…' : 'Sign and refund'}
            </button>
            <button type="button" class="btn" onClick={() => setAmount(formatStx(props.balance))}>
              All of it
            </button>
          </div>
        </form>
      )}
    </section>
  )
}

const REFUND_WORDS: Record<Refund['status'], string> = {
  pending: 'is queued: it is sent shortly.',
  broadcast: 'is on its way: it confirms with the next blocks.',
  confirmed: 'is in your wallet.',
  failed: 'failed: your credit was restored.',
}

function RefundStatus({ refund }: { refund: Refund }) {
  const kind = refund.status === 'confirmed' ? 'ok' : refund.status === 'failed' ? 'bad' : 'warn'
  return (
    <Notice kind={kind}>
      <p aria-live="polite" data-testid="refund-status">
        Your refund of {refund.amount_stx} STX {REFUND_WORDS[refund.status]}{' '}
        {refund.explorer_url && (
          <a href={refund.explorer_url} rel="noopener noreferrer">
            See it on the explorer ↗
          </a>
        )}
      </p>
    </Notice>
  )
}
