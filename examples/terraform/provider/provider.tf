terraform {
  required_providers {
    siteops = {
      source = "siteops/siteops"
    }
  }
}

# With no arguments the provider reads SITEOPS_BASE_URL and SITEOPS_API_TOKEN from the environment.
# Every argument can also be set here; keep secrets in sensitive variables, not in the file:
#
#   base_url        = "https://siteops.example.com"
#   api_token       = var.siteops_api_token        # or email/password (+ otp) for a JWT login
#   max_retries     = 3
#   request_timeout = 30                           # seconds per attempt
provider "siteops" {}
