/*
 * Stand-in for io.trino:trino-server-main's only class, which is not published
 * to Maven Central (for 476 either: it only ever shipped inside the tarball).
 * Same behaviour as upstream's: check the Java version, then start
 * io.trino.server.Server (in trino-main) with the version from trino-main's
 * manifest. Used only by the Plan A experiment (README.md).
 */
package io.trino.server;

public final class TrinoServer
{
    private TrinoServer() {}

    public static void main(String[] args)
    {
        String javaVersion = System.getProperty("java.version", "");
        int major = Integer.parseInt(javaVersion.split("\\D", 2)[0]);
        if (major < 24) {
            System.err.printf("ERROR: Trino requires Java 24+ (found %s)%n", javaVersion);
            System.exit(100);
        }
        new Server().start(trinoMainVersion());
    }

    // The package io.trino.server is split between this class and trino-main,
    // so read Implementation-Version from trino-main's own jar manifest.
    private static String trinoMainVersion()
    {
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(
                new java.io.File(Server.class.getProtectionDomain().getCodeSource().getLocation().toURI()))) {
            String version = jar.getManifest().getMainAttributes().getValue("Implementation-Version");
            return version == null ? "unknown" : version;
        }
        catch (Exception e) {
            return "unknown";
        }
    }
}
