/*
|--------------------------------------------------------------------------
| Scheduled jobs (`node ace scheduler:run`; `npm run dev` runs it too)
|--------------------------------------------------------------------------
|
| Every job is safe on several instances at once: each claims its rows in
| the database (FOR UPDATE SKIP LOCKED), so running the scheduler on every
| instance is fine. withoutOverlapping only covers one process.
|
*/
import scheduler from 'adonisjs-scheduler/services/main'

scheduler.command('payments:reconcile').everyMinute().withoutOverlapping()
scheduler.command('withdrawals:confirm').everyMinute().withoutOverlapping()
scheduler.command('mirrors:poll').everyMinute().withoutOverlapping()
scheduler.command('challenges:sweep').hourly().withoutOverlapping()
