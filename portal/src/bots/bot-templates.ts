import { type BotSetting, settingDefaults } from "./bot-settings.ts";
import { TEMPLATE_SETTINGS } from "./bot-template-settings.ts";
import type { FeatureKey } from "./feature-keys.ts";

/** A bot template of the catalog (`GET /api/admin/bots?view=templates`). */
export interface BotTemplate {
  id: string;
  name: string;
  description: string;
  /** An emoji, shown as the template's icon. */
  icon: string;
  /** Features switched on (global scope) when a bot is created from the template. */
  defaultFeatures: FeatureKey[];
  /** What a bot of this kind can do, as short machine-readable names. */
  capabilities: string[];
  /** Whether the bot answers inside threads rather than in the room's main timeline. */
  threadAware: boolean;
  /**
   * The settings a bot of this template takes in `config`, with their types, defaults and limits (bot-settings.ts):
   * the portal refuses a config that does not fit, and the console builds its settings form from them. `null`: a
   * free-form template (the custom bot), whose config is any JSON object.
   */
  settings: BotSetting[] | null;
  /** The starting `config` of a bot made from this template (the settings' defaults), merged under the admin's own. */
  defaultConfig: Record<string, unknown>;
  /** The localpart suggested for a bot made from this template. */
  suggestedLocalpart: string;
}

/**
 * The template catalog: the bots Matrix communities run most (welcome, moderation, feed and webhook notifications,
 * reminders, FAQ answers, admin chores, relaying) and a blank one. Kept in code: it changes with releases, not per
 * installation.
 */
const CATALOG: Omit<BotTemplate, "defaultConfig">[] = [
  {
    id: "welcome",
    name: "Welcome bot",
    description: "Greets people who join a room, points them to the rules and, if you like, sends the rules as a direct message.",
    icon: "👋",
    defaultFeatures: ["room_auto_join", "room_responses", "command_handling"],
    capabilities: ["greet_new_members", "send_room_rules", "direct_messages"],
    threadAware: false,
    settings: TEMPLATE_SETTINGS.welcome,
    suggestedLocalpart: "welcome",
  },
  {
    id: "moderation",
    name: "Moderation bot",
    description:
      "Keeps protected rooms clean: removes spam, applies keyword filters, kicks and bans, and takes orders from a management room.",
    icon: "🛡️",
    defaultFeatures: ["moderation_actions", "keyword_triggers", "admin_commands", "command_handling", "room_auto_join"],
    capabilities: ["redact_messages", "kick_and_ban", "keyword_filters", "ban_lists", "report_handling"],
    threadAware: true,
    settings: TEMPLATE_SETTINGS.moderation,
    suggestedLocalpart: "moderator",
  },
  {
    id: "notifier",
    name: "RSS & webhook notifier",
    description: "Posts new items of RSS and Atom feeds, and messages sent to its webhooks (CI, monitoring, forms), into rooms.",
    icon: "📣",
    defaultFeatures: ["webhook_notifications", "scheduled_messages"],
    capabilities: ["incoming_webhooks", "rss_atom_feeds", "formatted_messages"],
    threadAware: true,
    settings: TEMPLATE_SETTINGS.notifier,
    suggestedLocalpart: "notifier",
  },
  {
    id: "reminder",
    name: "Reminder & scheduler",
    description: 'Sets reminders on request ("!remind me in 2 hours to …") and posts recurring announcements on a schedule.',
    icon: "⏰",
    defaultFeatures: ["command_handling", "scheduled_messages", "thread_replies"],
    capabilities: ["one_off_reminders", "recurring_announcements", "time_zones"],
    threadAware: true,
    settings: TEMPLATE_SETTINGS.reminder,
    suggestedLocalpart: "reminder",
  },
  {
    id: "faq",
    name: "FAQ responder",
    description: "Answers frequent questions from a list of keywords and answers, in a thread so the room stays readable.",
    icon: "💬",
    defaultFeatures: ["keyword_triggers", "room_responses", "thread_replies", "command_handling"],
    capabilities: ["keyword_answers", "help_command", "thread_replies"],
    threadAware: true,
    settings: TEMPLATE_SETTINGS.faq,
    suggestedLocalpart: "faq",
  },
  {
    id: "admin-helper",
    name: "Admin helper",
    description:
      "Lets server admins do chores from a private room: create registration tokens, look users up, read room statistics.",
    icon: "🧰",
    defaultFeatures: ["admin_commands", "command_handling"],
    capabilities: ["registration_tokens", "user_lookup", "room_statistics", "server_notices"],
    threadAware: false,
    settings: TEMPLATE_SETTINGS["admin-helper"],
    suggestedLocalpart: "adminbot",
  },
  {
    id: "relay",
    name: "Room relay",
    description: "Copies messages from one room to others, e.g. announcements into every community room, with the sender's name.",
    icon: "🔁",
    defaultFeatures: ["message_relay", "room_auto_join"],
    capabilities: ["one_way_relay", "two_way_relay", "sender_attribution"],
    threadAware: true,
    settings: TEMPLATE_SETTINGS.relay,
    suggestedLocalpart: "relay",
  },
  {
    id: "custom",
    name: "Custom bot",
    description: "A blank bot: choose its features and configuration yourself.",
    icon: "🤖",
    defaultFeatures: [],
    capabilities: [],
    threadAware: false,
    settings: null,
    suggestedLocalpart: "bot",
  },
];

export const BOT_TEMPLATES: readonly BotTemplate[] = Object.freeze(
  CATALOG.map((template) => ({
    ...template,
    defaultConfig: template.settings ? settingDefaults(template.settings) : {},
  })),
);

export const findTemplate = (id: string) => BOT_TEMPLATES.find((template) => template.id === id);
