import router from '@adonisjs/core/services/router'
import { PAID_FEED_ROUTES } from '#feeds/feed_paths'
import { facilitatorRequestValidator } from '#payments/validators/facilitator_validator'

const FacilitatorSupportedController = () =>
  import('#payments/controllers/facilitator_supported_controller')
const FacilitatorVerifyController = () =>
  import('#payments/controllers/facilitator_verify_controller')
const FacilitatorSettleController = () =>
  import('#payments/controllers/facilitator_settle_controller')

router
  .group(() => {
    router.get('supported', [FacilitatorSupportedController, 'handle']).as('supported')
    router
      .post('verify', [FacilitatorVerifyController, 'handle'])
      .as('verify')
      .accepts({ body: facilitatorRequestValidator })
    router
      .post('settle', [FacilitatorSettleController, 'handle'])
      .as('settle')
      .accepts({ body: facilitatorRequestValidator })
  })
  .prefix('/facilitator')
  .as('facilitator')

const ServeFeedController = () => import('#payments/controllers/serve_feed_controller')

const { builtin, provider } = PAID_FEED_ROUTES
router.get(builtin.pattern, [ServeFeedController, 'builtin']).as(builtin.name)
router.get(provider.pattern, [ServeFeedController, 'provider']).as(provider.name)

const ShowPaymentController = () => import('#payments/controllers/show_payment_controller')

router.get('/payments/:txid', [ShowPaymentController, 'handle']).as('payments.show')
