// The emulator's built-in vulnerability catalogue: a small, fixed set of records modelled on the kinds
// of advisories published for WordPress core and popular plugins. They are fixtures for an emulator,
// not real advisories: the CVE numbers are shaped like real ones but are not assignments to rely on.
//
// Sites in the emulator have only a core and a PHP version, so every entry is keyed on those: an entry
// affects a site when `wp_from <= wp_version < fixed_by_wp` (and `php_version < php_below` when set).
// For plugins and themes, `installed_version` is the version that ships with the affected cores and
// `fixed_in` the plugin's fixed version; an upgrade pipeline that brings the core to `fixed_by_wp` also
// updates the plugin, so that is what fixes the record. Every WordPress minor below CURRENT_WP_VERSION
// has at least one entry (checked by the tests).
import { compareVersions } from "../versions.js";
import { cvss31, type Cvss } from "./cvss.js";

type SoftwareType = "core" | "plugin" | "theme";
type Severity = "low" | "medium" | "high" | "critical";

export interface CatalogueEntry {
  key: string;
  title: string;
  description: string;
  software: { type: SoftwareType; slug: string; name: string; installed_version?: string };
  /** The fixed version shown to users (a core version for core entries, a plugin version otherwise). */
  fixed_in: string;
  cve: string;
  cvss: Cvss;
  severity: Severity;
  /** First affected core version (inclusive); default: every version. */
  wp_from?: string;
  /** Core version that no longer has it. */
  fixed_by_wp: string;
  /** Only on PHP versions below this one. */
  php_below?: string;
}

type Draft = Omit<CatalogueEntry, "cvss" | "severity"> & { vector: string };

const WORDPRESS = { type: "core", slug: "wordpress", name: "WordPress" } as const;

const DRAFTS: Draft[] = [
  {
    key: "wp-core-5.9-wp-query-sqli",
    title: "WordPress Core < 6.0 - Authenticated SQL Injection via WP_Query",
    description: "Improper sanitization of the tax_query argument of WP_Query lets a plugin or theme that passes user input through it run arbitrary SQL.",
    software: WORDPRESS,
    fixed_in: "6.0",
    cve: "CVE-2022-21661",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N",
    fixed_by_wp: "6.0",
  },
  {
    key: "wp-core-6.0-comment-stored-xss",
    title: "WordPress Core < 6.1 - Stored Cross-Site Scripting via comment editing",
    description:
      "A user with moderation rights can store JavaScript in a comment through the quick-edit form; it runs in the browser of an administrator viewing the comment list.",
    software: WORDPRESS,
    fixed_in: "6.1",
    cve: "CVE-2022-43497",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
    fixed_by_wp: "6.1",
  },
  {
    key: "wp-core-6.1-pingback-ssrf",
    title: "WordPress Core < 6.2 - Unauthenticated Blind SSRF via pingbacks",
    description:
      "The pingback endpoint follows redirects to internal addresses after DNS rebinding, letting an unauthenticated attacker reach services on the site's private network.",
    software: WORDPRESS,
    fixed_in: "6.2",
    cve: "CVE-2022-43503",
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N",
    fixed_by_wp: "6.2",
  },
  {
    key: "wp-core-6.2-theme-directory-traversal",
    title: "WordPress Core < 6.3 - Directory Traversal via wp_lang parameter",
    description:
      "Translation files are loaded from a path built with an unsanitized parameter, letting an unauthenticated visitor load arbitrary .mo files and, with an uploaded file, execute code.",
    software: WORDPRESS,
    fixed_in: "6.3",
    cve: "CVE-2023-22745",
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N",
    fixed_by_wp: "6.3",
  },
  {
    key: "wp-core-6.3-pop-chain-rce",
    title: "WordPress Core < 6.4 - PHP Object Injection gadget chain (WP_HTML_Token)",
    description: "A property-oriented programming chain in WP_HTML_Token can turn any PHP object injection in a plugin or theme into remote code execution.",
    software: WORDPRESS,
    fixed_in: "6.4",
    cve: "CVE-2023-39999",
    vector: "CVSS:3.1/AV:N/AC:H/PR:H/UI:N/S:U/C:H/I:H/A:H",
    fixed_by_wp: "6.4",
  },
  {
    key: "wp-core-6.4-avatar-block-xss",
    title: "WordPress Core < 6.5 - Contributor+ Stored XSS via Avatar block",
    description: "Attributes of the Avatar block are output without escaping, letting a contributor store JavaScript that runs for every visitor of the post.",
    software: WORDPRESS,
    fixed_in: "6.5",
    cve: "CVE-2024-31111",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N",
    fixed_by_wp: "6.5",
  },
  {
    key: "wp-core-6.5-template-part-xss",
    title: "WordPress Core < 6.6 - Stored XSS via Template Part block",
    description: "The tagName attribute of the Template Part block is not validated, allowing contributors to inject arbitrary HTML.",
    software: WORDPRESS,
    fixed_in: "6.6",
    cve: "CVE-2024-34567",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N",
    fixed_by_wp: "6.6",
  },
  {
    key: "wp-core-6.6-html-api-path-traversal",
    title: "WordPress Core < 6.7 - Authenticated Path Traversal in template loading",
    description:
      "A template slug containing ../ sequences is resolved outside the theme directory, letting an editor include arbitrary PHP files present on the server.",
    software: WORDPRESS,
    fixed_in: "6.7",
    cve: "CVE-2024-47890",
    vector: "CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H",
    fixed_by_wp: "6.7",
  },
  {
    key: "wp-core-6.7-navigation-xss",
    title: "WordPress Core < 6.8 - Stored XSS via Navigation block labels",
    description: "Navigation link labels are rendered without escaping in the site editor, allowing an author to run scripts as an administrator.",
    software: WORDPRESS,
    fixed_in: "6.8",
    cve: "CVE-2025-23451",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
    fixed_by_wp: "6.8",
  },
  {
    key: "wp-core-6.8-login-open-redirect",
    title: "WordPress Core 6.5 - 6.8 - Open Redirect via redirect_to on login",
    description:
      "The redirect_to parameter accepts protocol-relative URLs with backslashes, so a crafted login link sends users to an attacker's site after they sign in.",
    software: WORDPRESS,
    fixed_in: "6.9",
    cve: "CVE-2025-58246",
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
    wp_from: "6.5",
    fixed_by_wp: "6.9",
  },
  {
    key: "wp-core-phpmailer-legacy-php",
    title: "WordPress Core < 6.6 on PHP < 8.0 - Object Injection via bundled PHPMailer",
    description:
      "On PHP 7.x the bundled PHPMailer unserializes attacker-controlled data when it validates sender addresses, enabling remote code execution with a gadget chain.",
    software: WORDPRESS,
    fixed_in: "6.6",
    cve: "CVE-2024-28114",
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H",
    fixed_by_wp: "6.6",
    php_below: "8.0",
  },
  {
    key: "woocommerce-8.2-sqli",
    title: "WooCommerce < 8.2.0 - Unauthenticated SQL Injection in order attribution",
    description:
      "The order attribution endpoint builds a query from unsanitized request parameters, letting unauthenticated visitors read the whole database, including customer records and account credentials.",
    software: { type: "plugin", slug: "woocommerce", name: "WooCommerce", installed_version: "7.9.0" },
    fixed_in: "8.2.0",
    cve: "CVE-2023-47777",
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    fixed_by_wp: "6.4",
  },
  {
    key: "woocommerce-9.1-review-xss",
    title: "WooCommerce < 9.1.0 - Stored XSS via product review author",
    description: "The name a customer leaves with a product review is printed unescaped in the admin order screen.",
    software: { type: "plugin", slug: "woocommerce", name: "WooCommerce", installed_version: "8.9.3" },
    fixed_in: "9.1.0",
    cve: "CVE-2024-39665",
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
    wp_from: "6.6",
    fixed_by_wp: "6.8",
  },
  {
    key: "contact-form-7-5.8.4-file-upload",
    title: "Contact Form 7 < 5.8.4 - Unauthenticated Arbitrary File Upload",
    description:
      "File names of attachments are checked before they are normalized, so a double extension lets an unauthenticated visitor upload a PHP file to a web-readable directory.",
    software: { type: "plugin", slug: "contact-form-7", name: "Contact Form 7", installed_version: "5.7.7" },
    fixed_in: "5.8.4",
    cve: "CVE-2023-6449",
    vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H",
    fixed_by_wp: "6.5",
  },
  {
    key: "elementor-3.18.2-rce",
    title: "Elementor < 3.18.2 - Contributor+ Remote Code Execution via template import",
    description:
      "The template import action extracts ZIP archives without checking entry names, letting a contributor write PHP files into the uploads directory.",
    software: { type: "plugin", slug: "elementor", name: "Elementor Website Builder", installed_version: "3.16.4" },
    fixed_in: "3.18.2",
    cve: "CVE-2023-48777",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H",
    wp_from: "6.2",
    fixed_by_wp: "6.5",
  },
  {
    key: "wordpress-seo-22.6-reflected-xss",
    title: "Yoast SEO < 22.6 - Reflected Cross-Site Scripting",
    description: "A URL parameter of the admin dashboard is echoed without escaping; an administrator following a crafted link runs the attacker's script.",
    software: { type: "plugin", slug: "wordpress-seo", name: "Yoast SEO", installed_version: "22.3" },
    fixed_in: "22.6",
    cve: "CVE-2024-34515",
    vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
    wp_from: "6.3",
    fixed_by_wp: "6.6",
  },
  {
    key: "twentytwentyfour-1.1-xss",
    title: "Twenty Twenty-Four < 1.1 - Stored XSS via pattern attributes",
    description: "Block pattern attributes of the theme are rendered without escaping, allowing contributors to inject scripts.",
    software: { type: "theme", slug: "twentytwentyfour", name: "Twenty Twenty-Four", installed_version: "1.0" },
    fixed_in: "1.1",
    cve: "CVE-2024-10211",
    vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N",
    wp_from: "6.4",
    fixed_by_wp: "6.5",
  },
];

export const CATALOGUE: readonly CatalogueEntry[] = DRAFTS.map(({ vector, ...rest }) => {
  const cvss = cvss31(vector);
  return { ...rest, cvss, severity: cvss.rating === "none" ? "low" : cvss.rating };
});

// Every site creation and check asks for its versions' entries, and sites share a handful of version pairs:
// each pair's list is computed once. Versions come from users (any `major.minor`), so the memo is bounded.
const affectingMemo = new Map<string, readonly CatalogueEntry[]>();
const AFFECTING_MEMO_MAX = 1_000;

/** Entries that affect a site running these versions (a shared list: do not change it). */
export function affecting(wpVersion: string, phpVersion: string): readonly CatalogueEntry[] {
  const key = `${wpVersion} ${phpVersion}`;
  let entries = affectingMemo.get(key);
  if (!entries) {
    entries = CATALOGUE.filter(
      (e) =>
        (e.wp_from === undefined || compareVersions(wpVersion, e.wp_from) >= 0) &&
        compareVersions(wpVersion, e.fixed_by_wp) < 0 &&
        (e.php_below === undefined || compareVersions(phpVersion, e.php_below) < 0),
    );
    if (affectingMemo.size >= AFFECTING_MEMO_MAX) affectingMemo.clear();
    affectingMemo.set(key, entries);
  }
  return entries;
}

const BY_KEY = new Map(CATALOGUE.map((e) => [e.key, e]));

export function catalogueEntry(key: string): CatalogueEntry | undefined {
  return BY_KEY.get(key);
}
