#!/usr/bin/env python3
"""The quick start in Python: an organization, a secret for its application and a canary on the mesh.

`converge plan` / `apply` run it (cdktf.json says how); twin.ts is the same app in TypeScript.
"""
from cdktf import App, TerraformStack
from cdk_converge import SecretValue, mesh, platform, secrets

app = App()
stack = TerraformStack(app, "python-quickstart")

# Organizations are retained by default: destroying the stack forgets the organization, never its data.
org = platform.Organization(
    stack,
    "org",
    name="acme-py",
    email="ops@acme.io",
    collaborator_auth_policy=platform.CollaboratorAuthPolicy.TWO_FACTOR_MANDATORY,
)

# The password is read from the environment when converge runs: never in the synthesized output or state.
secrets.KvSecret(
    stack,
    "db",
    path=f"{org.name}/db",
    data={"user": "app", "password": SecretValue.from_env("QUICKSTART_DB_PASSWORD")},
    custom_metadata={"owner": "platform-team"},
    max_versions=5,
)

# Splitters and routers need an L7 protocol: the service speaks HTTP.
mesh.ServiceDefaults(stack, "web-defaults", name="web", protocol=mesh.MeshProtocol.HTTP)

mesh.ServiceResolver(
    stack,
    "web-resolver",
    name="web",
    connect_timeout="5s",
    default_subset="v1",
    subsets={
        "v1": mesh.ResolverSubset(filter="Service.Meta.version == v1", only_passing=True),
        # A plain dict works too, with the Python spelling of the fields.
        "v2": {"filter": "Service.Meta.version == v2", "only_passing": True},
    },
)

# 90% of the traffic to v1, 10% to the canary v2.
mesh.ServiceSplitter(
    stack,
    "web-splitter",
    name="web",
    splits=[
        mesh.ServiceSplit(weight=90, service_subset="v1"),
        mesh.ServiceSplit(weight=10, service_subset="v2"),
    ],
)

# Testers opt in with a header; everything else goes through the splitter.
mesh.ServiceRouter(
    stack,
    "web-router",
    name="web",
    routes=[
        mesh.ServiceRoute(
            match=mesh.RouteMatch(
                http=mesh.RouteHttpMatch(
                    path_prefix="/",
                    header=[mesh.RouteHeaderMatch(name="x-canary", exact="1")],
                )
            ),
            destination=mesh.RouteDestination(service_subset="v2", request_timeout="15s", num_retries=2),
        ),
        # Plain dicts, nested: snake_case keys are the Python spelling of the TypeScript fields.
        {"match": {"http": {"path_prefix": "/admin"}}, "destination": {"service_subset": "v1", "request_timeout": "10s"}},
    ],
)

app.synth()
