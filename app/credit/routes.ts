import router from '@adonisjs/core/services/router'
import { TOP_UP_ROUTE } from '#credit/top_up_payment_required'
import { topUpValidator } from '#credit/top_up_validator'
import { creditNonceValidator, creditTokenValidator } from '#credit/credit_token_validators'
import { refundNonceValidator, refundValidator } from '#credit/refund_validators'
import { statementValidator } from '#credit/statement_validator'
import { middleware } from '#start/kernel'
import { throttle } from '#start/limiter'

const BuyTopUpController = () => import('#credit/controllers/buy_top_up_controller')
const IssueCreditNonceController = () => import('#credit/controllers/issue_credit_nonce_controller')
const ExchangeCreditTokenController = () =>
  import('#credit/controllers/exchange_credit_token_controller')
const IssueRefundChallengeController = () =>
  import('#credit/controllers/issue_refund_challenge_controller')
const RequestRefundController = () => import('#credit/controllers/request_refund_controller')
const ShowRefundController = () => import('#credit/controllers/show_refund_controller')
const ShowCreditBalanceController = () =>
  import('#credit/controllers/show_credit_balance_controller')
const ShowCreditStatementController = () =>
  import('#credit/controllers/show_credit_statement_controller')

router
  .post(TOP_UP_ROUTE.pattern, [BuyTopUpController, 'handle'])
  .as(TOP_UP_ROUTE.name)
  .use(throttle.topUps)
  .accepts({ query: topUpValidator })

/**
 * Credit tokens (a signed message for a token that spends credit within its
 * limits), refunds, balance and statement (docs/credit.md): money moves only
 * with the wallet's fresh signature; the reads take a session or a credit
 * token of the wallet.
 */
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
    router
      .post('refunds/nonce', [IssueRefundChallengeController, 'handle'])
      .as('refunds.nonce')
      .use(throttle.refunds)
      .accepts({ body: refundNonceValidator })
    router
      .post('refunds', [RequestRefundController, 'handle'])
      .as('refunds.request')
      .use(throttle.refunds)
      .accepts({ body: refundValidator, status: 202 })
    router
      .group(() => {
        router.get('refunds/:id', [ShowRefundController, 'handle']).as('refunds.show')
        router.get('balance', [ShowCreditBalanceController, 'handle']).as('balance')
        router
          .get('statement', [ShowCreditStatementController, 'handle'])
          .as('statement')
          .accepts({ query: statementValidator })
      })
      .use(middleware.creditWallet())
  })
  .prefix('/credit')
  .as('credit')
