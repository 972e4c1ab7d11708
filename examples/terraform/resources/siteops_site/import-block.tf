# Or with an import block (Terraform 1.5+), then `terraform plan` / `terraform apply`. The id may be the
# site's id, its URL, or "name:" and its exact name.
import {
  to = siteops_site.blog
  id = "https://blog.example.com" # or "site_0123456789abcdef", or "name:Company blog"
}
