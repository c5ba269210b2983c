/*
|--------------------------------------------------------------------------
| Scheduled jobs (`node ace scheduler:run`; `npm run dev` runs it too)
|--------------------------------------------------------------------------
|
| Every job is safe on several instances at once: each claims its rows in
| the database (FOR UPDATE SKIP LOCKED), so running the scheduler on every
| instance is fine. withoutOverlapping only covers one process. `npm start`
| runs it in one process of its own (docs/operations.md#processes).
|
*/
import app from '@adonisjs/core/services/app'
import scheduler from 'adonisjs-scheduler/services/main'

/**
 * Each minute; every second in tests, whose scheduler processes
 * (tests/functional/cluster) cannot wait minutes for a run.
 */
const often = (command: string) => {
  const job = scheduler.command(command)
  return (app.inTest ? job.everySecond() : job.everyMinute()).withoutOverlapping()
}

often('payments:reconcile')
often('withdrawals:confirm')
often('mirrors:poll')
scheduler.command('challenges:sweep').hourly().withoutOverlapping()
