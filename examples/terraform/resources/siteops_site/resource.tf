resource "siteops_site" "blog" {
  name = "Company blog"
  url  = "https://blog.example.com"

  # Optional: the service's current versions when omitted. Raising one later runs an upgrade pipeline
  # (pre-upgrade snapshot, preflight, upgrade, verification, rollback on failure); lowering one is refused.
  wp_version  = "6.4"
  php_version = "8.2"

  # Optional, default true: Terraform refuses to delete the site (destroy, a removed block, a replacement)
  # until deletion_protection = false has been applied; changing it makes no API request.
  deletion_protection = true

  # Optional: how version changes are applied (these are the defaults but require_approval).
  upgrade {
    strategy         = "pipeline" # or "direct": change the versions in place, no pipeline
    require_approval = true       # apply waits until someone approves (console, CLI, action)
    timeout          = "30m"
  }
}

output "blog_status" {
  value = siteops_site.blog.status
}
