import router from '@adonisjs/core/services/router'

const ShowHealthController = () => import('#health/controllers/show_health_controller')

router.get('/health', [ShowHealthController, 'handle']).as('health')
