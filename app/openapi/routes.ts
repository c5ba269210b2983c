import router from '@adonisjs/core/services/router'

const ShowOpenApiController = () => import('#openapi/controllers/show_openapi_controller')

router.get('/openapi.json', [ShowOpenApiController, 'handle']).as('openapi')
