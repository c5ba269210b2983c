import router from '@adonisjs/core/services/router'

const ShowHealthController = () => import('#health/controllers/show_health_controller')
const ShowReadinessController = () => import('#health/controllers/show_readiness_controller')
const ShowLivenessController = () => import('#health/controllers/show_liveness_controller')

router.get('/health', [ShowHealthController, 'handle']).as('health')
router
  .group(() => {
    router.get('ready', [ShowReadinessController, 'handle']).as('ready')
    router.get('live', [ShowLivenessController, 'handle']).as('live')
  })
  .prefix('/health')
  .as('health')
