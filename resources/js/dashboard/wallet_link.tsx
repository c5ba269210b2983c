import { useState } from 'preact/hooks'
import { api } from '../lib/api'
import { shortAddress, when } from '../lib/format'
import { signMessage, walletAddress } from '../lib/wallet'
import { useProvider } from './provider_context'
import { Notice, Problem, useAction } from './ui'

interface Challenges {
  nonce: string
  message: string
  owner_challenge: { nonce: string; message: string } | null
}

interface Pending {
  address: string
  challenges: Challenges
  signature: string
  publicKey: string
}

/**
 * Linking the withdrawal wallet: the wallet to be paid signs its challenge
 * (POST …/link-wallet/nonce, then …/link-wallet). Unless it is the owner
 * wallet, the owner wallet approves it too — the first link as a change:
 * the person switches back to the owner account in their wallet for that
 * second signature. The server decides which: it sends `owner_challenge`.
 */
export function WalletLink() {
  const { provider, reload } = useProvider()
  const [pending, setPending] = useState<Pending | null>(null)
  const [linked, setLinked] = useState<string | null>(null)
  const base = `/providers/id/${provider.id}`

  const submit = async (link: Pending, owner?: { signature: string; publicKey: string }) => {
    await api(`${base}/link-wallet`, {
      method: 'POST',
      body: {
        wallet_address: link.address,
        nonce: link.challenges.nonce,
        signature: link.signature,
        public_key: link.publicKey,
        ...(owner && link.challenges.owner_challenge
          ? {
              owner_nonce: link.challenges.owner_challenge.nonce,
              owner_signature: owner.signature,
              owner_public_key: owner.publicKey,
            }
          : {}),
      },
    })
    setPending(null)
    setLinked(link.address)
    await reload()
  }

  const start = useAction(async () => {
    setLinked(null)
    const address = await walletAddress()
    const challenges = await api<Challenges>(`${base}/link-wallet/nonce`, {
      method: 'POST',
      body: { wallet_address: address },
    })
    const { signature, publicKey } = await signMessage(challenges.message)
    const link = { address, challenges, signature, publicKey }
    if (challenges.owner_challenge) setPending(link)
    else await submit(link)
  })

  const ownerSigns = useAction(async () => {
    if (!pending?.challenges.owner_challenge) return
    await submit(pending, await signMessage(pending.challenges.owner_challenge.message))
  })

  const current = provider.linked_withdrawal_wallet
  return (
    <section class="card" aria-labelledby="wallet-title">
      <h2 id="wallet-title">Withdrawal wallet</h2>
      {current ? (
        <p>
          Payouts go to <code data-testid="linked-wallet">{current}</code>
          {current === provider.owner_wallet ? ' (your owner wallet).' : '.'}
        </p>
      ) : (
        <p class="muted">
          No wallet is linked yet. Link the wallet that should receive your earnings: the one you
          signed in with is paid at once; another one you control also needs the approval of the one
          you signed in with, and is paid only after a waiting time.
        </p>
      )}
      {provider.withdrawal_wallet_held_until &&
        Date.parse(provider.withdrawal_wallet_held_until) > Date.now() && (
          <Notice kind="warn">
            <p>
              This wallet was linked recently: withdrawals to it are held until{' '}
              {when(provider.withdrawal_wallet_held_until)}, so that you can react if the link was
              not yours.
            </p>
          </Notice>
        )}
      {linked && <Notice kind="ok">Linked {shortAddress(linked)}: payouts go there.</Notice>}
      {pending ? (
        <div>
          <Notice kind="warn">
            <p>
              <strong>One more signature.</strong> {shortAddress(pending.address)} signed. Because
              it is not your owner wallet, your owner wallet must approve it: switch your wallet to
              the owner account <code>{shortAddress(provider.owner_wallet)}</code>, then sign.
            </p>
          </Notice>
          <Problem error={ownerSigns.error} />
          <div class="row">
            <button
              type="button"
              class="btn btn-primary"
              onClick={() => ownerSigns.run()}
              disabled={ownerSigns.busy}
            >
              {ownerSigns.busy ? 'Waiting for your wallet…' : 'Sign with the owner wallet'}
            </button>
            <button type="button" class="btn" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <>
          <p class="small muted">
            Select the receiving account in your wallet first: it signs a message proving it is
            yours (no transaction).
          </p>
          <Problem error={start.error} />
          <button type="button" class="btn" onClick={() => start.run()} disabled={start.busy}>
            {start.busy
              ? 'Waiting for your wallet…'
              : current
                ? 'Change withdrawal wallet'
                : 'Link a withdrawal wallet'}
          </button>
        </>
      )}
    </section>
  )
}
