resource "siteops_webhook_endpoint" "deploys" {
  url            = "https://hooks.example.com/siteops"
  description    = "Deployment notifications"
  enabled_events = ["site.created", "snapshot.completed", "upgrade_pipeline.succeeded"]
  enabled        = true
}

# The signing secret is only returned when the endpoint is created; it is kept in state (sensitive).
output "webhook_secret" {
  value     = siteops_webhook_endpoint.deploys.secret
  sensitive = true
}
