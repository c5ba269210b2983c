import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { AccessToken } from '@adonisjs/auth/access_tokens'
import { DateTime } from 'luxon'
import { type ChallengeAnswer, SignInChallenges } from '#auth/sign_in_challenges'
import { Clock } from '#core/clock'
import type Provider from '#models/provider'
import User from '#models/user'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { E_OWNER_SIGNATURE_REQUIRED } from '#provider_accounts/exceptions'
import { lockedProvider } from '#provider_accounts/provider_access'
import type { LinkWalletInput } from '#provider_accounts/validators'
import { type LinkChallenge, linkChallenges } from '#provider_accounts/withdrawal_wallet_consent'

/** The owner's request: its user and the session token it came with (the one kept). */
export interface OwnerSession {
  user: User
  token: AccessToken
}

/**
 * POST /providers/id/:id/link-wallet. Every link takes the challenges
 * `linkChallenges` names: the new wallet's signature and, unless the new
 * wallet is the owner wallet, the owner wallet's approval naming it — a
 * session token alone links nothing (docs/api.md, "Withdrawal wallet").
 * Linking another wallet than the one linked:
 * - holds withdrawals for `withdrawalWalletHoldMs` when the new wallet is not
 *   the owner wallet, so the owner can notice a link it did not make before
 *   any money leaves (the owner wallet's own key already holds the money);
 * - revokes the owner's other sessions, first link included: the key is
 *   present, and a session it does not know of loses its access.
 * Linking the linked wallet again changes nothing. The nonces are consumed
 * in the transaction that writes, with the provider row locked: a refusal
 * leaves them usable and the provider as it was.
 */
@inject()
export class LinkWithdrawalWallet {
  constructor(
    private challenges: SignInChallenges,
    private clock: Clock,
    private config: ProvidersConfig
  ) {}

  async execute(owned: Provider, session: OwnerSession, input: LinkWalletInput) {
    const address = input.wallet_address
    return db.transaction(async (trx) => {
      const provider = await lockedProvider(owned, trx)
      const needed = linkChallenges(provider, address)
      const owner = needed.owner && { challenge: needed.owner, answer: ownerApproval(input) }

      const redeem = (challenge: LinkChallenge, answer: SignedAnswer) =>
        this.challenges.redeem(
          { ...answer, walletAddress: challenge.walletAddress },
          { purpose: challenge.purpose, statement: challenge.statement, client: trx }
        )
      await redeem(needed.wallet, {
        nonce: input.nonce,
        signature: input.signature,
        publicKey: input.public_key,
      })
      if (owner) await redeem(owner.challenge, owner.answer)
      if (provider.linkedWithdrawalWallet === address) return provider

      provider.linkedWithdrawalWallet = address
      provider.withdrawalWalletHeldUntil = owner
        ? DateTime.fromMillis(this.clock.now() + this.config.withdrawalWalletHoldMs)
        : null
      await User.accessTokens.revokeAllExcept(session.user, session.token, trx)
      await provider.useTransaction(trx).save()
      return provider
    })
  }
}

/** An answer to a challenge whose wallet is known from the challenge itself. */
type SignedAnswer = Omit<ChallengeAnswer, 'walletAddress'>

/** The owner wallet's signed approval (owner_*), which must come with the link. */
function ownerApproval(input: LinkWalletInput): SignedAnswer {
  if (input.owner_nonce === undefined || input.owner_signature === undefined) {
    throw new E_OWNER_SIGNATURE_REQUIRED()
  }
  return {
    nonce: input.owner_nonce,
    signature: input.owner_signature,
    publicKey: input.owner_public_key,
  }
}
