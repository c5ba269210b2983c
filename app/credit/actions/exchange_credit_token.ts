import { inject } from '@adonisjs/core'
import { Database } from '@adonisjs/lucid/database'
import { E_CHALLENGE_NOT_FOUND } from '#auth/exceptions'
import { SignInChallenges } from '#auth/sign_in_challenges'
import { signerOf, statementOf } from '#auth/siws_message'
import { Clock } from '#core/clock'
import { CreditConfig } from '#credit/define_config'
import { creditLimitsOf } from '#credit/credit_token_terms'
import { CreditTokens, tokenLifeSeconds } from '#credit/credit_tokens'

/**
 * POST /credit/tokens: a signed credit message in, a credit token out. The
 * challenge is redeemed (its checks and codes are the sign-in's) and the
 * token stored in one transaction: a nonce buys one token. The token's limits
 * are read from the statement of the message the service issued, and it
 * lives config/credit.ts's `token.maxLifetimeSeconds` from now, at most 1 h.
 */
@inject()
export class ExchangeCreditToken {
  constructor(
    private db: Database,
    private challenges: SignInChallenges,
    private tokens: CreditTokens,
    private clock: Clock,
    private config: CreditConfig
  ) {}

  async execute({ message, signature }: { message: string; signature: string }) {
    const challenge = signerOf(message)
    if (!challenge) throw new E_CHALLENGE_NOT_FOUND()
    return this.db.transaction(async (trx) => {
      await this.challenges.redeem(
        { walletAddress: challenge.address, nonce: challenge.nonce, signature, message },
        { purpose: 'credit_token', client: trx }
      )
      // Issued by IssueCreditNonce with this statement: the message matched it byte for byte.
      const limits = creditLimitsOf(statementOf(message))
      if (!limits) throw new E_CHALLENGE_NOT_FOUND()
      const lifeSeconds = tokenLifeSeconds(this.config)
      const { token, expiresAt } = await this.tokens.issue(trx, {
        ...limits,
        address: challenge.address,
        signInNonce: challenge.nonce,
        expiresAt: new Date(this.clock.now() + lifeSeconds * 1000),
      })
      return {
        token,
        address: challenge.address,
        spend_cap_microstx: Number(limits.spendCap),
        max_price_microstx: Number(limits.maxPrice),
        expires_at: expiresAt.toISOString(),
      }
    })
  }
}
