import router from '@adonisjs/core/services/router'

const ShowMetricsController = () => import('#metrics/controllers/show_metrics_controller')

router.get('/metrics', [ShowMetricsController, 'handle']).as('metrics')
