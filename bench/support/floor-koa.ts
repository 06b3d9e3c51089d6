import Koa from 'koa';
import Router from '@koa/router';
const app = new Koa();
const router = new Router();
const doc = { data: { id: '6c1f2a8e-0000-4000-8000-000000000000', name: 'bench', type: 'email', config: { recipients: ['oncall@example.com'], subject_template: '[{{severity}}] {{rule_name}}' }, created_at: new Date().toISOString(), updated_at: new Date().toISOString(), revision: 0 } };
router.post('/api/v1/notification-channels', async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  JSON.parse(Buffer.concat(chunks).toString());
  ctx.status = 201; ctx.set('Location', '/x'); ctx.body = doc;
});
app.use(router.routes());
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('is listening on'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
