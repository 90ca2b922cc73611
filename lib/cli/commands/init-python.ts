/**
 * The files of a new Python app (`converge init --language python`, as `cdk init app --language python`):
 * a cdktf app run by the Python of the virtual environment it is installed in, planned by the converge CLI
 * from npm or from the `converge` command the Python package puts in the venv (docs/packages.md).
 */

/** The emulator's environment file the README's commands write and read. */
export const PYTHON_ENV_FILE = '.converge-emulator.env';

/** The README's paragraph on what the app may read of the environment (shared by every language). */
export function synthEnvironmentNote(readsVariable: string): string {
  return `The app runs with an allow-list of the environment (\`PATH\`, \`HOME\`, locale, the toolchains' settings): API
tokens, the state key and everything else stay out, because in CI the app is a pull request's own code. To give it
a variable, name it: \`converge plan --synth-env ORG_NAME\` (repeat it for more), or \`export CONVERGE_SYNTH_ENV=ORG_NAME\`.
When the app reads a variable that is set but withheld (\`${readsVariable}\`), converge warns and names
the fix; the app sees it unset.
`;
}

/** `requirement`: the app's requirement on cdk-converge (a version range, or a wheel's path before a release). */
export function pythonAppFiles(name: string, stack: string, requirement: string): Record<string, string> {
  const cdktf = { language: 'python', app: 'python3 main.py', output: 'cdktf.out', projectId: name, sendCrashReports: 'false', terraformProviders: [], terraformModules: [] };
  return {
    'cdktf.json': `${JSON.stringify(cdktf, null, 2)}\n`,
    'requirements.txt': `${requirement}\ncdktf>=0.21.0\nconstructs>=10.4.2\n`,
    '.gitignore': `.venv/\n__pycache__/\ncdktf.out/\n.converge/\n${PYTHON_ENV_FILE}\n# Terraform's local state (a bridge) and saved plans (converge plan --out): they hold what was applied\nterraform.tfstate*\nterraform.*.tfstate*\n*.plan\n`,
    'main.py': `from constructs import Construct
from cdktf import App, TerraformStack
from cdk_converge import platform, secrets, SecretValue


class AppStack(TerraformStack):
    """The stack: an organization and a secret for its application."""

    def __init__(self, scope: Construct, id: str) -> None:
        super().__init__(scope, id)
        org = platform.Organization(self, "org", name="${name.replace(/[^a-z0-9-]/g, '-')}", email="ops@example.com")
        secrets.KvSecret(self, "config", path=f"{org.name}/config", data={
            "greeting": "hello",
            # A secret from the environment of \`converge plan\`/\`apply\`, never written in cdktf.out or state:
            # "api_key": SecretValue.from_env("API_KEY"),
        })


if __name__ == "__main__":
    app = App()
    AppStack(app, "${stack}")
    app.synth()
`,
    'README.md': `# ${name}

A cdktf app in Python whose constructs converge applies (https://www.npmjs.com/package/cdk-converge).

\`\`\`sh
python3 -m venv .venv
. .venv/bin/activate
pip install -r requirements.txt   # cdk-converge, cdktf and constructs
export CHECKPOINT_DISABLE=1       # cdktf's telemetry: offline it prints an [ERROR] … ENOTFOUND
converge emulator --write-env ${PYTHON_ENV_FILE} --detach   # the platform, secrets and mesh APIs, locally; returns when ready
set -a; . ./${PYTHON_ENV_FILE}; set +a
converge plan                     # runs main.py with the venv's Python: what would change
converge apply                    # converge it
converge emulator stop ${PYTHON_ENV_FILE}                  # stop the emulator
\`\`\`

\`converge\` is the command \`pip install\` puts in the venv (the Python package carries the CLI; it needs
Node.js >= 20 on \`PATH\`), or the npm package's (\`npm install -g cdk-converge\`, \`npx --yes -p cdk-converge converge\`).
Before cdk-converge is on PyPI, install its wheel instead of the first line of \`requirements.txt\`
(\`pip install ./cdk_converge-0.1.0-py3-none-any.whl cdktf constructs\`; see the repository's docs/packages.md).

${synthEnvironmentNote('os.environ.get("ORG_NAME", "default-org")')}
Against the real services, set \`PLATFORM_ADDRESS\`/\`PLATFORM_TOKEN\`, \`SECRETS_ADDR\`/\`SECRETS_TOKEN\`
and \`MESH_HTTP_ADDR\`/\`MESH_HTTP_TOKEN\` instead.

converge keeps what it applied in \`.converge/\`, protected by a key it creates there
(\`.converge/state.key\`). To share state (a team, CI), make one key and give it to every run:
\`export CONVERGE_STATE_KEY=$(converge keygen)\` (or \`openssl rand -hex 32\`).
`,
  };
}
