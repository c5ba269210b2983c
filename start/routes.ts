/*
|--------------------------------------------------------------------------
| Routes
|--------------------------------------------------------------------------
|
| Each domain declares its routes in app/<domain>/routes.ts. First the
| `.accepts()` route macro they use to name their validators (app/openapi).
|
*/
import '#openapi/route_inputs'
import '#health/routes'
import '#metrics/routes'
import '#feeds/routes'
import '#payments/routes'
import '#stats/routes'
import '#provider_accounts/routes'
import '#auth/routes'
import '#withdrawals/routes'
import '#credit/routes'
import '#discovery/routes'
import '#web/routes'
import '#openapi/routes'
