import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { IssueCreditNonce } from '#credit/actions/issue_credit_nonce'
import { creditNonceValidator } from '#credit/credit_token_validators'

/** POST /credit/nonce: the message a wallet signs for a credit token with these limits. */
@inject()
export default class IssueCreditNonceController {
  constructor(private issueNonce: IssueCreditNonce) {}

  async handle({ request }: HttpContext) {
    const input = await request.validateUsing(creditNonceValidator)
    return this.issueNonce.execute({
      address: input.address,
      spendCap: input.spend_cap_stx as bigint,
      maxPrice: input.max_price_stx as bigint,
    })
  }
}
