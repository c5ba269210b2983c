import router from '@adonisjs/core/services/router'

const FacilitatorSupportedController = () =>
  import('#payments/controllers/facilitator_supported_controller')
const FacilitatorVerifyController = () =>
  import('#payments/controllers/facilitator_verify_controller')
const FacilitatorSettleController = () =>
  import('#payments/controllers/facilitator_settle_controller')

router
  .group(() => {
    router.get('supported', [FacilitatorSupportedController, 'handle']).as('supported')
    router.post('verify', [FacilitatorVerifyController, 'handle']).as('verify')
    router.post('settle', [FacilitatorSettleController, 'handle']).as('settle')
  })
  .prefix('/facilitator')
  .as('facilitator')

const ServeFeedController = () => import('#payments/controllers/serve_feed_controller')

router.get('/feeds/:id', [ServeFeedController, 'builtin']).as('feeds.builtin')
router.get('/feeds/p/:handle/:slug', [ServeFeedController, 'provider']).as('feeds.provider')

const ShowPaymentController = () => import('#payments/controllers/show_payment_controller')

router.get('/payments/:txid', [ShowPaymentController, 'handle']).as('payments.show')
