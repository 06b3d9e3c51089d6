/** The document's tags: what each groups (the reference page shows it above the tag's operations). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Platform: 'Health, metrics, this document, the built-in identity provider and stream tickets.',
  Dashboard: "The web dashboard's page and static files (no token: its API calls carry one).",
  'Notification channels': 'Where alerts are delivered: webhook, email, chat, SMS and pager channels.',
  Users: "The tenant's users, their invitations and permission overrides, and `/me`.",
  'Roles and groups': "Roles, groups and the tenant's default permissions.",
  'On-call schedules': 'Rotations, overrides and who is on call.',
  Escalation: 'Escalation policies and the escalations pending now.',
  'Warehouse health': "Live health of the warehouse of the token's environment.",
  Simulator: 'Steering the simulated warehouse (development and tests).',
  'Alert rules': 'Rules on warehouse metrics and their evaluation history.',
  Incidents: 'Incidents raised by alert rules: acknowledge, resolve, notes, history and the live feed.',
  'Data sync': 'The sync jobs copying warehouse data into the relational store.',
  'Analytics assistant': 'The tool-using assistant answering questions about the warehouse.',
  Analytics: 'Incident analytics and on-call health, from the incident-facts read model (JSON or CSV).',
  'Maintenance windows':
    "Planned disruption: matching rules are evaluated but silenced, and open incidents' escalations held.",
  Heartbeats:
    "Dead-man's switches: a job pings its secret address; a missed or failed run pages through the heartbeat's policy.",
  Integrations:
    "Senders outside the platform (Alertmanager, Grafana, Airflow, dbt, CloudWatch) that open, acknowledge and resolve incidents: the integrations, their routing keys, and PagerDuty's Events API v2 address.",
  'Action links':
    "Acknowledge or resolve from a page: the signed single-use links' public pages, and revoking them all.",
};
