// The tests of a health check: what the service's monitor would find when it visits a site, modelled
// after the WordPress Site Health screen. Pure: the site's row and its ignored findings in, items out.
import { CURRENT_WP_VERSION, compareVersions } from "../versions.js";
import { affecting } from "../catalogue/vulnerabilities.js";
import type { HealthCheckItem } from "../../wire/health-checks.js";
import type { SiteRow } from "../store/sites.js";

/** What a check looks at of a site. */
type CheckedSite = Pick<SiteRow, "url" | "wp_version" | "php_version">;

/** PHP branches that no longer receive security fixes. */
const PHP_END_OF_LIFE = "8.1";

function item(test: string, label: string, status: HealthCheckItem["status"], description: string): HealthCheckItem {
  return { test, label, status, description };
}

function vulnerabilityTest(site: CheckedSite, ignored: ReadonlySet<string>): HealthCheckItem {
  // From the catalogue (not the records table), so the first check of a new site already sees them.
  const open = affecting(site.wp_version, site.php_version).filter((e) => !ignored.has(e.key));
  const critical = open.filter((e) => e.severity === "critical").length;
  if (open.length === 0) return item("vulnerabilities", "No known vulnerabilities", "good", "No open vulnerability affects the installed software.");
  return item(
    "vulnerabilities",
    `${open.length} known ${open.length === 1 ? "vulnerability" : "vulnerabilities"}`,
    critical ? "critical" : "recommended",
    `${open.length} open ${open.length === 1 ? "vulnerability affects" : "vulnerabilities affect"} the installed software` +
      (critical ? `, ${critical} of them critical.` : "."),
  );
}

/** The items of one check; an unreachable site has only the failed request. */
/** Site Health's PHP test: critical once the site's PHP no longer receives security updates. */
function phpTest(php: string): HealthCheckItem {
  const test = "php_version";
  return compareVersions(php, PHP_END_OF_LIFE) < 0
    ? item(
        test,
        "Your site is running an outdated version of PHP",
        "critical",
        `PHP ${php} no longer receives security updates; upgrade to ${PHP_END_OF_LIFE} or newer.`,
      )
    : item(test, "Your site is running a supported version of PHP", "good", `PHP ${php} receives security updates.`);
}

export function siteTests(site: CheckedSite, reachable: boolean, ignored: ReadonlySet<string>): HealthCheckItem[] {
  if (!reachable) {
    return [
      item(
        "http_requests",
        "The site could not be reached",
        "critical",
        `Requests to ${site.url} failed or returned a server error; the site is not serving pages.`,
      ),
    ];
  }
  const https = site.url.startsWith("https:");
  return [
    item("http_requests", "The site responds to requests", "good", `${site.url} answered with a successful status.`),
    item(
      "https_status",
      "Your website is using an active HTTPS connection",
      https ? "good" : "recommended",
      https ? "Visitors are served over HTTPS." : "The site is served over plain HTTP; enable HTTPS.",
    ),
    compareVersions(site.wp_version, CURRENT_WP_VERSION) >= 0
      ? item("wordpress_version", "Your version of WordPress is up to date", "good", `WordPress ${site.wp_version} is the latest version.`)
      : item(
          "wordpress_version",
          "A new version of WordPress is available",
          "recommended",
          `WordPress ${site.wp_version} is installed; ${CURRENT_WP_VERSION} is available.`,
        ),
    phpTest(site.php_version),
    vulnerabilityTest(site, ignored),
    item("rest_availability", "The REST API is available", "good", "The REST API answered the loopback request."),
    item("background_updates", "Background updates are working", "good", "Automatic minor and security updates can be installed."),
  ];
}
