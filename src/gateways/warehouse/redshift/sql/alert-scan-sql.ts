/**
 * STL_ALERT_EVENT_LOG joined to the table an alert concerns, as AWS's own admin script does
 * (amazon-redshift-utils, src/AdminScripts/perf_alert.sql): the scan on the alert's query, slice
 * and segment (an alert is logged on a step that is often not the scan step, so also matching
 * the step loses it), user queries only (userid > 1), no temporary volt_tt tables, and the event
 * read up to its first colon so the variants of one event group together. Alias `a` is the alert
 * log, `s` the scan, `t` svv_table_info.
 */
export const ALERT_TABLE_JOIN = `stl_alert_event_log a
  JOIN stl_scan s ON s.query = a.query AND s.slice = a.slice AND s.segment = a.segment
  JOIN svv_table_info t ON t.table_id = s.tbl`;

export const ALERT_USER_TABLES = `a.userid > 1 AND s.perm_table_name NOT LIKE 'volt_tt%'`;

export const alertEvent = (column: string) => `TRIM(SPLIT_PART(${column}, ':', 1))`;
