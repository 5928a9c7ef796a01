// The columns of the 2.x `monitor` table that the converter reads, and nothing else. A database
// is untrusted input: `SELECT *` would also compute every generated column, and a crafted one
// can make that spin for seconds per row. Naming the columns keeps the read to stored values.

/** Every `monitor` column some mapping reads (by its 2.x name); a test keeps this in step. */
export const MONITOR_COLUMNS: readonly string[] = Object.freeze([
  'accepted_statuscodes_json', 'active', 'auth_method', 'basic_auth_pass', 'basic_auth_user', 'bearer_token', 'body',
  'cache_bust', 'conditions', 'database_connection_string', 'database_query', 'description', 'dns_resolve_server',
  'dns_resolve_type', 'docker_container', 'docker_host', 'domain_expiry_notification', 'expected_tls_alert', 'expected_value',
  'expiry_notification', 'grpc_body', 'grpc_enable_tls', 'grpc_metadata', 'grpc_method', 'grpc_protobuf',
  'grpc_service_name', 'grpc_url', 'headers', 'hostname', 'http_body_encoding', 'id', 'ignore_tls', 'interval',
  'invert_keyword', 'ip_family', 'json_path', 'json_path_operator', 'kafka_producer_allow_auto_topic_creation',
  'kafka_producer_brokers', 'kafka_producer_message', 'kafka_producer_sasl_options', 'kafka_producer_ssl',
  'kafka_producer_topic', 'keyword', 'maxredirects', 'maxretries', 'method', 'mqtt_check_type', 'mqtt_password',
  'mqtt_success_message', 'mqtt_topic', 'mqtt_username', 'mqtt_websocket_path', 'name', 'ntp_root_dispersion_threshold',
  'ntp_stratum_threshold', 'ntp_time_offset_threshold', 'oauth_client_secret', 'packet_size', 'parent', 'ping_count',
  'port', 'proxy_id', 'push_token', 'rabbitmq_nodes', 'rabbitmq_password', 'rabbitmq_username', 'radius_password',
  'remote_browser', 'retry_interval', 'retry_only_on_status_code_failure', 'smtp_security', 'snmp_oid',
  'snmp_v3_username', 'snmp_version', 'timeout', 'tls_key', 'type', 'upside_down', 'url',
  'ws_ignore_sec_websocket_accept_header', 'ws_subprotocol',
]);
