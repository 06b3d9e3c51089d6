/**
 * The functions a SELECT handed to EXPLAIN may call (read-only-select.ts): what the assistant's
 * explain tool needs to reason about real analytical queries (aggregates, window functions,
 * date/time, string, math, conditional, conversion and Redshift's JSON helpers) and nothing that
 * acts on the server, reads files, sleeps, reaches other databases or touches settings. Names are
 * lower case, without schema; `pg_catalog.` is the only schema a call may name. Anything not
 * listed is refused: a new need is a one-line change here, a missed danger would be a hole.
 */
const AGGREGATES = [
  'count', 'sum', 'avg', 'min', 'max', 'stddev', 'stddev_samp', 'stddev_pop', 'variance', 'var_samp', 'var_pop',
  'listagg', 'string_agg', 'median', 'percentile_cont', 'percentile_disc', 'approximate_percentile_disc',
  'bool_and', 'bool_or', 'bit_and', 'bit_or', 'every', 'corr', 'covar_pop', 'covar_samp',
];
const WINDOW = [
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead',
  'first_value', 'last_value', 'nth_value', 'ratio_to_report',
];
const DATE_TIME = [
  'date_trunc', 'date_part', 'extract', 'dateadd', 'datediff', 'date_add', 'date_diff', 'add_months', 'months_between',
  'last_day', 'next_day', 'getdate', 'now', 'to_char', 'to_date', 'to_timestamp', 'convert_timezone', 'timezone',
  'date', 'age', 'make_date', 'make_time', 'make_timestamp', 'make_interval', 'date_cmp', 'trunc', 'overlaps',
  'current_date', 'timeofday', 'isfinite',
];
const STRING = [
  'lower', 'upper', 'initcap', 'length', 'len', 'char_length', 'character_length', 'octet_length', 'bit_length',
  'substring', 'substr', 'left', 'right', 'btrim', 'ltrim', 'rtrim', 'trim', 'position', 'strpos', 'charindex',
  'replace', 'translate', 'concat', 'concat_ws', 'split_part', 'lpad', 'rpad', 'repeat', 'reverse', 'overlay',
  'regexp_replace', 'regexp_substr', 'regexp_count', 'regexp_instr', 'regexp_match', 'like_escape',
  'similar_to_escape', 'md5', 'quote_ident', 'quote_literal', 'chr', 'ascii', 'starts_with', 'is_normalized',
  'normalize', 'pg_collation_for', 'json_extract_path_text', 'json_extract_array_element_text', 'json_array_length',
  'json_parse', 'is_valid_json', 'is_valid_json_array', 'json_serialize',
];
const MATH = [
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'sign', 'mod', 'power', 'pow', 'sqrt', 'cbrt', 'exp', 'ln', 'log',
  'div', 'pi', 'degrees', 'radians', 'width_bucket', 'random',
];
const CONDITIONAL_AND_CASTS = [
  'coalesce', 'nullif', 'nvl', 'nvl2', 'decode', 'greatest', 'least', 'isnull',
  'cast', 'convert', 'to_number', 'text', 'int', 'int4', 'int8', 'numeric', 'float8', 'bool',
];

export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([...AGGREGATES, ...WINDOW, ...DATE_TIME, ...STRING, ...MATH, ...CONDITIONAL_AND_CASTS]);

/**
 * Refused whatever the list says, with a reason naming what they do: they act on the server
 * (sessions, locks, settings, sequences), wait, read files or reach other databases.
 */
export const SERVER_ACTING_FUNCTIONS: ReadonlySet<string> = new Set([
  'pg_terminate_backend', 'pg_cancel_backend', 'pg_sleep', 'pg_sleep_for', 'pg_sleep_until', 'set_config',
  'pg_reload_conf', 'pg_rotate_logfile', 'dblink', 'dblink_exec', 'dblink_connect', 'pg_read_file',
  'pg_read_binary_file', 'pg_ls_dir', 'lo_import', 'lo_export', 'pg_advisory_lock', 'pg_advisory_xact_lock',
  'nextval', 'setval', 'pg_switch_wal', 'pg_create_restore_point', 'query_to_xml', 'pg_notify',
]);
