import { useState } from 'preact/hooks'
import { signIn } from '../lib/wallet'
import { Problem, useAction } from './ui'

/** Sign-In With Stacks: the wallet signs a one-time message, the API returns a session. */
export function SignIn({ registering }: { registering: boolean }) {
  const [step, setStep] = useState('')
  const { run, busy, error } = useAction(async () => {
    setStep('Waiting for your wallet…')
    try {
      await signIn()
    } finally {
      setStep('')
    }
  })
  return (
    <div class="card" style="max-width:560px;margin:24px auto">
      <p class="eyebrow">For providers</p>
      <h1>{registering ? 'Sell your data on Tollbooth' : 'Sign in to your provider dashboard'}</h1>
      <p class="muted">
        Your Stacks wallet is your account: no password, no e-mail. Your wallet asks you to sign a
        short message that proves you own the address; nothing is paid and no transaction is made.
      </p>
      <ol class="small" style="padding-left:20px;color:var(--ink-2)">
        <li>Choose your wallet (Leather or Xverse) and the account to use.</li>
        <li>Sign the message “… wants you to sign in with your Stacks account”.</li>
        <li>
          {registering
            ? 'Register your provider and its first feed.'
            : 'Manage your feeds and earnings.'}
        </li>
      </ol>
      <Problem error={error} />
      <div class="row" style="margin-top:16px">
        <button type="button" class="btn btn-primary" onClick={() => run()} disabled={busy}>
          {busy ? 'Signing in…' : 'Connect wallet and sign in'}
        </button>
        {step && (
          <span class="muted small" role="status">
            {step}
          </span>
        )}
      </div>
    </div>
  )
}
