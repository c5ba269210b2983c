import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { AccessToken } from '@adonisjs/auth/access_tokens'
import { DateTime } from 'luxon'
import { type ChallengeAnswer, SignInChallenges } from '#auth/sign_in_challenges'
import { Clock } from '#core/clock'
import User from '#models/user'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { E_OWNER_SIGNATURE_REQUIRED } from '#provider_accounts/exceptions'
import { ownedProvider } from '#provider_accounts/provider_access'
import type { LinkWalletInput } from '#provider_accounts/validators'
import {
  changeWalletStatement,
  linkWalletStatement,
} from '#provider_accounts/withdrawal_wallet_statements'

/** The owner's request: its user and the session token it came with (the one kept). */
export interface OwnerSession {
  user: User
  token: AccessToken
}

/**
 * POST /providers/id/:id/link-wallet. The new wallet's signature links it.
 * Replacing a linked wallet also needs the owner wallet's signature naming the
 * new address; it holds withdrawals for `withdrawalWalletHoldMs` and revokes
 * the owner's other sessions (ARCHITECTURE §11), so a stolen session alone
 * cannot redirect the money. Linking the linked wallet again changes nothing.
 * The nonces are consumed in the transaction that writes, with the provider
 * row locked: a refusal leaves them usable and the provider as it was.
 */
@inject()
export class LinkWithdrawalWallet {
  constructor(
    private challenges: SignInChallenges,
    private clock: Clock,
    private config: ProvidersConfig
  ) {}

  async execute(providerId: string, session: OwnerSession, input: LinkWalletInput) {
    const address = input.wallet_address
    return db.transaction(async (trx) => {
      const provider = await ownedProvider(providerId, session.user.walletAddress, trx)
      const linked = provider.linkedWithdrawalWallet
      const consent =
        linked !== null && linked !== address ? ownerConsent(input, provider.ownerWallet) : null

      await this.challenges.redeem(
        {
          walletAddress: address,
          nonce: input.nonce,
          signature: input.signature,
          publicKey: input.public_key,
        },
        {
          purpose: 'link_wallet',
          statement: linkWalletStatement(provider.handle, address),
          client: trx,
        }
      )
      if (linked === address) return provider

      if (consent) {
        await this.challenges.redeem(consent, {
          purpose: 'change_wallet',
          statement: changeWalletStatement(provider.handle, address),
          client: trx,
        })
        provider.withdrawalWalletHeldUntil = DateTime.fromMillis(
          this.clock.now() + this.config.withdrawalWalletHoldMs
        )
        await User.accessTokens.revokeAllExcept(session.user, session.token, trx)
      }
      provider.linkedWithdrawalWallet = address
      await provider.useTransaction(trx).save()
      return provider
    })
  }
}

/** The owner wallet's signed challenge of a change, which must come with it. */
function ownerConsent(input: LinkWalletInput, ownerWallet: string): ChallengeAnswer {
  if (input.owner_nonce === undefined || input.owner_signature === undefined) {
    throw new E_OWNER_SIGNATURE_REQUIRED()
  }
  return {
    walletAddress: ownerWallet,
    nonce: input.owner_nonce,
    signature: input.owner_signature,
    publicKey: input.owner_public_key,
  }
}
