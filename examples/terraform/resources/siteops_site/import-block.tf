# Or with an import block (Terraform 1.5+), then `terraform plan` / `terraform apply`.
import {
  to = siteops_site.blog
  id = "site_0123456789abcdef"
}
