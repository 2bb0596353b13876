/**
 * The ten feature keys a bot can switch on, globally or per room (portal spec). A leaf module on purpose (no
 * imports): the admin console takes the list, in this order, through `portal/src/contract.ts`.
 */
export const FEATURE_KEYS = [
  "command_handling",
  "keyword_triggers",
  "webhook_notifications",
  "scheduled_messages",
  "moderation_actions",
  "room_auto_join",
  "room_responses",
  "thread_replies",
  "message_relay",
  "admin_commands",
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];
