/**
 * The floor of the create route: Koa and @koa/router with the platform's route path, the JSON body
 * read and parsed, a bearer token sent, and a constant 201 answer of the same shape as a created
 * channel; no app middleware, no authentication, no stores. What no create can beat on this
 * machine, measured in the same rounds as hello (bench/commands.ts).
 */
import Router from '@koa/router';
import Koa from 'koa';
import { readBodyText } from '../../src/http/body.js';

const app = new Koa();
const router = new Router();
const at = new Date().toISOString();
const answer = {
  success: true,
  data: {
    id: '6c1f2a8e-0000-4000-8000-000000000000',
    name: 'bench',
    type: 'email',
    config: { recipients: ['oncall@example.com'], subject_template: '[{{severity}}] {{rule_name}}' },
    created_at: at,
    updated_at: at,
  },
};
router.post('/api/v1/notification-channels', async (ctx) => {
  // The platform's own reader, size limit included, then the parse.
  JSON.parse(await readBodyText(ctx));
  ctx.status = 201;
  ctx.set('Location', `/api/v1/notification-channels/${answer.data.id}`);
  ctx.body = answer;
});
app.use(router.routes());
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('is listening on'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
