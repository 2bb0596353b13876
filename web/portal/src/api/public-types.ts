/** Shapes of the portal's public API (shared/specs/portal-api.md, docs/portal.md). */

export interface ClientLink {
  name: string;
  url: string;
  platform: "web" | "desktop" | "ios" | "android" | "other";
}

/** Every branding field (GET /api/branding fills in defaults for unset ones). */
export interface BrandingSettings {
  appTitle: string;
  subtitle: string;
  welcomeHeadline: string;
  registrationText: string;
  successText: string;
  footerText: string;
  usernameHint: string;
  logoAlt: string;
  primaryColor: string;
  accentColor: string;
  backgroundColor: string;
  textColor: string;
  colorScheme: "auto" | "light" | "dark";
  layoutPreset: "centered" | "split" | "minimal";
  locale: string;
  privacyPolicyUrl: string | null;
  termsUrl: string | null;
  imprintUrl: string | null;
  supportUrl: string | null;
  contactEmail: string | null;
  clientLinks: ClientLink[];
}

export interface PublicBranding extends BrandingSettings {
  profileId: string | null;
  version: number;
  publishedAt: string | null;
  logoUrl: string | null;
  faviconUrl: string | null;
  heroUrl: string | null;
  backgroundUrl: string | null;
}

export interface PublicServer {
  id: string;
  name: string;
  slug: string;
  serverName: string;
  publicUrl: string;
  brandingProfileId: string | null;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
}

export interface Session {
  authenticated: boolean;
  user?: SessionUser;
  demo?: boolean;
}

export type UsernameVerdict = { available: true; username: string } | { available: false; errorCode: string; error: string };

export interface SignUpInput {
  username: string;
  password: string;
  confirmPassword: string;
  token: string;
  displayName?: string;
  serverId: string;
}
