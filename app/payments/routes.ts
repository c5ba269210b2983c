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
