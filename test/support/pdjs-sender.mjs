/**
 * A second real Events API v2 sender: PagerDuty's own JavaScript client (@pagerduty/pdjs), run in
 * its own process so NODE_EXTRA_CA_CERTS can make it trust the test's certificate (the client
 * only speaks https://<server>/v2/enqueue). argv[2]: JSON {server, events: [{type, data}]}, where
 * type is trigger, acknowledge, resolve or change. Prints one JSON line: [{status, body}] per event.
 */
import pdjs from '@pagerduty/pdjs';

const { server, events } = JSON.parse(process.argv[2]);
const send = { trigger: pdjs.trigger, acknowledge: pdjs.acknowledge, resolve: pdjs.resolve, change: pdjs.change };
const answers = [];
for (const { type, data } of events) {
  const answer = await send[type]({ server, data });
  answers.push({ status: answer.status, body: answer.data });
}
process.stdout.write(`${JSON.stringify(answers)}\n`);
