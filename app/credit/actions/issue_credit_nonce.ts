import { inject } from '@adonisjs/core'
import { SignInChallenges } from '#auth/sign_in_challenges'
import { siwsOrigin } from '#auth/siws_message'
import { ChainConfig } from '#chain/define_config'
import { publicUrl } from '#core/public_url'
import { type CreditLimits, creditStatement } from '#credit/credit_token_terms'

/**
 * POST /credit/nonce: the Sign-In With Stacks message a wallet signs to get a
 * credit token, its statement naming the token's limits; beside it the same
 * fields as x402's `sign-in-with-x` extension info (CAIP-2 chain id).
 */
@inject()
export class IssueCreditNonce {
  constructor(
    private challenges: SignInChallenges,
    private chain: ChainConfig
  ) {}

  async execute(request: CreditLimits & { address: string }) {
    const statement = creditStatement(request)
    const challenge = await this.challenges.issue(request.address, {
      purpose: 'credit_token',
      statement,
    })
    const { domain, uri } = siwsOrigin(publicUrl(), this.chain.network)
    return {
      message: challenge.message,
      nonce: challenge.nonce,
      expires_at: challenge.expiresAt.toISOString(),
      spend_cap_microstx: Number(request.spendCap),
      max_price_microstx: Number(request.maxPrice),
      siwx: {
        domain,
        address: request.address,
        statement,
        uri,
        version: '1',
        chainId: this.chain.network.caip2,
        nonce: challenge.nonce,
        issuedAt: challenge.issuedAt.toISOString(),
        expirationTime: challenge.expiresAt.toISOString(),
      },
    }
  }
}
