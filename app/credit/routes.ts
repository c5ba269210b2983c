import router from '@adonisjs/core/services/router'
import { TOP_UP_ROUTE } from '#credit/top_up_payment_required'
import { topUpValidator } from '#credit/validators'
import { refundNonceValidator, refundValidator } from '#credit/refund_validators'
import { statementValidator } from '#credit/statement_validator'
import { middleware } from '#start/kernel'
import { throttle } from '#start/limiter'

const BuyTopUpController = () => import('#credit/controllers/buy_top_up_controller')
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
 * Refunds, balance and statement (docs/credit.md#refunds): a refund moves
 * money only with the wallet's fresh signature; the reads take a session or
 * a credit token of the wallet.
 */
router
  .group(() => {
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
