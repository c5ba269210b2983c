import router from '@adonisjs/core/services/router'
import { throttle } from '#start/limiter'
import { creditNonceValidator, creditTokenValidator } from '#credit/validators'

// Credit tokens: a signed message for a token that spends credit within its limits.
const IssueCreditNonceController = () => import('#credit/controllers/issue_credit_nonce_controller')
const ExchangeCreditTokenController = () =>
  import('#credit/controllers/exchange_credit_token_controller')

router
  .group(() => {
    router
      .post('nonce', [IssueCreditNonceController, 'handle'])
      .as('nonce')
      .use(throttle.creditTokens)
      .accepts({ body: creditNonceValidator })
    router
      .post('tokens', [ExchangeCreditTokenController, 'handle'])
      .as('tokens')
      .use(throttle.creditTokens)
      .accepts({ body: creditTokenValidator, status: 201 })
  })
  .prefix('/credit')
  .as('credit')
