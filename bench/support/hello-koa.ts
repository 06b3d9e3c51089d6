/** The baseline: a bare Koa hello-world, run as its own process like the platform. */
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { hello: 'world' };
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('is listening on'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
