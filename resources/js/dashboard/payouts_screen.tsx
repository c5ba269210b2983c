import { useCallback, useEffect, useState } from 'preact/hooks'
import { api, apiResponse } from '../lib/api'
import { shortAddress, when } from '../lib/format'
import { formatStx, parseStx, stx } from '../lib/money'
import { site } from '../lib/site'
import { useProvider } from './provider_context'
import type { Withdrawal } from './types'
import { Metric, Notice, Problem, StxAmountField, useAction } from './ui'
import { WalletLink } from './wallet_link'
import { isSettled, statusInWords } from './withdrawal_words'

/**
 * Money out: the withdrawal wallet, a withdrawal (amount in STX, a
 * confirmation, one idempotency key per attempt), its live status, and the
 * history with its CSV export, all through the owner API.
 */
export function PayoutsScreen() {
  const { provider, reload } = useProvider()
  const [withdrawals, setWithdrawals] = useState<Withdrawal[] | null>(null)
  const [historyError, setHistoryError] = useState<unknown>(null)
  const [latestId, setLatestId] = useState<string | null>(null)
  const base = `/providers/id/${provider.id}`

  const loadHistory = useCallback(async () => {
    try {
      const history = await api<{ withdrawals: Withdrawal[] }>(`${base}/withdrawals`)
      setWithdrawals(history.withdrawals)
      setHistoryError(null)
    } catch (error) {
      setHistoryError(error)
    }
  }, [base])

  useEffect(() => {
    loadHistory()
  }, [loadHistory])

  const unsettled = withdrawals?.some((withdrawal) => !isSettled(withdrawal)) ?? false
  useEffect(() => {
    if (!unsettled) return
    const timer = setInterval(() => {
      loadHistory()
      reload()
    }, site().polls.withdrawalMs)
    return () => clearInterval(timer)
  }, [unsettled, loadHistory, reload])

  const latest = withdrawals?.find((withdrawal) => withdrawal.id === latestId) ?? null
  return (
    <div class="stack">
      <div class="page-head">
        <div>
          <p class="eyebrow">Payouts</p>
          <h1>Your earnings</h1>
          <p>
            97% of every paid call is yours. Withdraw it to your wallet as STX; the platform pays
            the network fee.
          </p>
        </div>
      </div>
      <section class="metrics" aria-label="Balances">
        <Metric
          label="Pending revenue (withdrawable)"
          value={stx(provider.pending_revenue)}
          money
          testid="pending"
        />
        <Metric label="Lifetime earned" value={stx(provider.lifetime_earned)} />
        <Metric label="Total withdrawn" value={stx(provider.total_withdrawn)} />
      </section>
      <WalletLink />
      <WithdrawForm
        onWithdrawn={async (withdrawal) => {
          setLatestId(withdrawal.id)
          await Promise.all([loadHistory(), reload()])
        }}
      />
      {latest && <LatestWithdrawal withdrawal={latest} />}
      <History
        withdrawals={withdrawals}
        error={historyError}
        csvPath={`${base}/withdrawals?limit=${site().limits.withdrawal.historyMax}`}
        handle={provider.handle}
      />
    </div>
  )
}

function WithdrawForm({ onWithdrawn }: { onWithdrawn: (withdrawal: Withdrawal) => Promise<void> }) {
  // The smallest and largest withdrawal (config/withdrawals.ts), in µSTX.
  const minimum = BigInt(site().limits.withdrawal.minimumMicrostx)
  const maximum = BigInt(site().limits.withdrawal.maximumMicrostx)
  const { provider } = useProvider()
  const [amount, setAmount] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  /** The attempt being confirmed: its amount and its idempotency key. */
  const [attempt, setAttempt] = useState<{ microstx: bigint; key: string } | null>(null)
  const wallet = provider.linked_withdrawal_wallet
  const pending = BigInt(provider.pending_revenue)

  const send = useAction(async () => {
    if (!attempt || !wallet) return
    const { withdrawal } = await api<{ withdrawal: Withdrawal }>(
      `/providers/id/${provider.id}/withdraw`,
      {
        method: 'POST',
        body: {
          amount_microstx: Number(attempt.microstx),
          destination_address: wallet,
          idempotency_key: attempt.key,
        },
      }
    )
    setAttempt(null)
    setAmount('')
    await onWithdrawn(withdrawal)
  })

  const review = (event: Event) => {
    event.preventDefault()
    const microstx = parseStx(amount)
    const words =
      microstx === null
        ? 'Enter an amount in STX, like 2.5 (at most 6 decimals).'
        : microstx < minimum
          ? `The smallest withdrawal is ${stx(minimum)}.`
          : microstx > maximum
            ? `The largest withdrawal is ${stx(maximum)}; withdraw in several steps.`
            : microstx > pending
              ? `That is more than your pending revenue (${stx(pending)}).`
              : null
    setProblem(words)
    if (words || microstx === null) return
    send.setError(null)
    setAttempt({ microstx, key: crypto.randomUUID() })
  }

  const heldUntil = provider.withdrawal_wallet_held_until
  if (!wallet || (heldUntil && Date.parse(heldUntil) > Date.now())) {
    return (
      <section class="card" aria-labelledby="withdraw-title">
        <h2 id="withdraw-title">Withdraw</h2>
        <p class="muted">
          {wallet
            ? `Your withdrawal wallet was linked recently: you can withdraw to it from ${when(heldUntil)}.`
            : 'Link a withdrawal wallet first: it is the only place payouts can go.'}
        </p>
      </section>
    )
  }
  return (
    <section class="card" aria-labelledby="withdraw-title">
      <h2 id="withdraw-title">Withdraw</h2>
      {attempt ? (
        <div data-testid="withdraw-confirm">
          <Notice kind="warn">
            <p>
              Send <strong>{stx(attempt.microstx)}</strong> to <code>{wallet}</code>? It is an
              on-chain transfer from the Tollbooth platform wallet and cannot be undone once
              confirmed.
            </p>
          </Notice>
          <Problem error={send.error} />
          <div class="row">
            <button
              type="button"
              class="btn btn-primary"
              onClick={() => send.run()}
              disabled={send.busy}
            >
              {send.busy
                ? 'Sending…'
                : send.error
                  ? 'Try again'
                  : `Withdraw ${stx(attempt.microstx)}`}
            </button>
            <button type="button" class="btn" onClick={() => setAttempt(null)} disabled={send.busy}>
              Change the amount
            </button>
          </div>
        </div>
      ) : (
        <form onSubmit={review}>
          <StxAmountField
            id="amount"
            hint={`From ${formatStx(minimum)} to ${stx(maximum)}, at most your pending revenue (${stx(pending)}). To ${shortAddress(wallet)}.`}
            problem={problem}
            value={amount}
            onValue={setAmount}
          />
          <div class="row">
            <button type="submit" class="btn btn-primary">
              Review withdrawal
            </button>
            {pending >= minimum && (
              <button
                type="button"
                class="btn"
                onClick={() => setAmount(formatStx(pending < maximum ? pending : maximum))}
              >
                All of it
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  )
}

function LatestWithdrawal({ withdrawal }: { withdrawal: Withdrawal }) {
  const kind =
    withdrawal.status === 'confirmed' ? 'ok' : withdrawal.status === 'failed' ? 'bad' : 'warn'
  return (
    <section class="card" aria-labelledby="latest-title" data-testid="latest-withdrawal">
      <h2 id="latest-title">Your withdrawal of {withdrawal.amount_stx} STX</h2>
      <Notice kind={kind}>
        <p aria-live="polite">
          <span class={`status status-${withdrawal.status}`} data-testid="withdrawal-status">
            {withdrawal.status}
          </span>{' '}
          {statusInWords(withdrawal)}
        </p>
      </Notice>
      <dl class="facts">
        <dt>To</dt>
        <dd class="mono">{withdrawal.destination_address}</dd>
        <dt>Transaction</dt>
        <dd>
          {withdrawal.tx_hash && withdrawal.explorer_url ? (
            <a
              href={withdrawal.explorer_url}
              rel="noopener noreferrer"
              class="mono"
              data-testid="explorer-link"
            >
              {withdrawal.tx_hash.slice(0, 18)}… on the explorer ↗
            </a>
          ) : (
            'not sent yet'
          )}
        </dd>
        <dt>Memo</dt>
        <dd class="mono">{withdrawal.memo}</dd>
      </dl>
    </section>
  )
}

function History(props: {
  withdrawals: Withdrawal[] | null
  error: unknown
  csvPath: string
  handle: string
}) {
  const exportCsv = useAction(async () => {
    const response = await apiResponse(props.csvPath, { accept: 'text/csv' })
    const url = URL.createObjectURL(await response.blob())
    const link = document.createElement('a')
    link.href = url
    link.download = `tollbooth-${props.handle}-withdrawals.csv`
    link.click()
    URL.revokeObjectURL(url)
  })
  return (
    <section class="card" aria-labelledby="history-title">
      <div class="card-title">
        <h2 id="history-title">History</h2>
        <button
          type="button"
          class="btn btn-small"
          onClick={() => exportCsv.run()}
          disabled={exportCsv.busy || !props.withdrawals?.length}
        >
          Export CSV
        </button>
      </div>
      <Problem error={props.error ?? exportCsv.error} />
      {props.withdrawals && props.withdrawals.length === 0 && (
        <p class="muted">No withdrawal yet.</p>
      )}
      {props.withdrawals && props.withdrawals.length > 0 && (
        <div class="table-wrap">
          <table data-testid="withdrawal-history">
            <thead>
              <tr>
                <th scope="col">Requested</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Transaction</th>
              </tr>
            </thead>
            <tbody>
              {props.withdrawals.map((withdrawal) => (
                <tr key={withdrawal.id}>
                  <td>{when(withdrawal.created_at)}</td>
                  <td class="num">{withdrawal.amount_stx} STX</td>
                  <td>
                    <span class={`status status-${withdrawal.status}`}>{withdrawal.status}</span>
                  </td>
                  <td>
                    {withdrawal.explorer_url ? (
                      <a
                        href={withdrawal.explorer_url}
                        rel="noopener noreferrer"
                        class="mono small"
                      >
                        {withdrawal.tx_hash?.slice(0, 12)}…
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
