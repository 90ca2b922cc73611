package example;

import com.hashicorp.cdktf.App;
import com.hashicorp.cdktf.TerraformStack;
import io.converge.cdk.SecretValue;
import io.converge.cdk.mesh.ServiceDefaults;
import io.converge.cdk.mesh.MeshProtocol;
import io.converge.cdk.mesh.ServiceSplit;
import io.converge.cdk.mesh.ServiceSplitter;
import io.converge.cdk.platform.Organization;
import io.converge.cdk.secrets.KvSecret;
import java.util.List;
import java.util.Map;

/** The minimal app of scripts/test-languages.sh, in Java; twin.ts is the same app in TypeScript. */
public final class Main {
    public static void main(final String[] args) {
        App app = new App();
        TerraformStack stack = new TerraformStack(app, "languages");

        Organization org = Organization.Builder.create(stack, "org")
                .name("acme-lang")
                .email("ops@acme.io")
                .build();

        KvSecret.Builder.create(stack, "db")
                .path(org.getName() + "/db")
                .data(Map.of("user", "app", "password", SecretValue.fromEnv("LANGUAGES_DB_PASSWORD")))
                .build();

        ServiceDefaults.Builder.create(stack, "web-defaults").name("web").protocol(MeshProtocol.HTTP).build();

        ServiceSplitter.Builder.create(stack, "web-splitter")
                .name("web")
                .splits(List.of(
                        ServiceSplit.builder().weight(90).serviceSubset("v1").build(),
                        ServiceSplit.builder().weight(10).serviceSubset("v2").build()))
                .build();

        app.synth();
    }
}
