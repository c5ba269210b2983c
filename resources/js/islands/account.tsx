import { shortAddress } from '../lib/format'
import { useSession } from '../lib/use_session'
import { signOut } from '../lib/wallet'

/** The header's account corner: sign-in link, or the signed-in wallet with the way out. */
export default function Account() {
  const session = useSession()
  if (!session) {
    return (
      <a class="btn btn-small" href="/dashboard">
        Provider sign-in
      </a>
    )
  }
  return (
    <>
      <a class="wallet-chip" href="/dashboard" title={session.walletAddress}>
        <span class="dot" aria-hidden="true" style="width:8px;height:8px" />
        <span class="visually-hidden">Signed in as </span>
        {shortAddress(session.walletAddress)}
      </a>
      <button type="button" class="btn btn-small btn-ghost" onClick={() => signOut()}>
        Sign out
      </button>
    </>
  )
}
