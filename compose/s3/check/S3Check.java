// End-to-end check of the S3 store with the AWS SDK v2 as Iceberg 1.10.1 bundles it
// (iceberg-aws-bundle, the SDK S3FileIO uses). Run by s3_check in ../component.sh:
//   java -cp '<libs>/s3-check/*' S3Check.java <endpoint> <region> <bucket> <access> <secret> [when_required]
// Exercises PutObject (small, and a streamed 6 MiB body), GetObject, ListObjectsV2, and a
// multipart upload: while it is open the key must NOT be listed; after Complete it must be;
// an aborted upload must leave nothing. Exit 0 only if every step holds.
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.*;

public class S3Check {
  static int failures = 0;

  static void check(boolean ok, String what) {
    System.out.println((ok ? "ok   " : "FAIL ") + what);
    if (!ok) failures++;
  }

  static List<String> keys(S3Client s3, String bucket, String prefix) {
    return s3.listObjectsV2(ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build())
        .contents().stream().map(S3Object::key).collect(Collectors.toList());
  }

  public static void main(String[] a) throws Exception {
    String endpoint = a[0], region = a[1], bucket = a[2], access = a[3], secret = a[4];
    boolean whenRequired = a.length > 5 && a[5].equals("when_required");
    var b = S3Client.builder()
        .endpointOverride(URI.create(endpoint))
        .region(Region.of(region))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)))
        .httpClientBuilder(ApacheHttpClient.builder());
    if (whenRequired) {
      b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    }
    System.out.println("AWS SDK " + software.amazon.awssdk.core.util.VersionInfo.SDK_VERSION
        + ", checksums " + (whenRequired ? "when_required" : "SDK default (when_supported)"));
    String p = "rr-s3check/" + System.nanoTime() + "/";
    try (S3Client s3 = b.build()) {
      // 1. small PutObject (SDK default adds a CRC32 flexible checksum)
      s3.putObject(PutObjectRequest.builder().bucket(bucket).key(p + "small.txt").build(),
          RequestBody.fromString("hello rosterrig"));
      String got = s3.getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key(p + "small.txt").build())
          .asString(StandardCharsets.UTF_8);
      check(got.equals("hello rosterrig"), "PutObject + GetObject small object");

      // 2. 6 MiB PutObject from a stream (aws-chunked body with a trailing checksum over http)
      byte[] big = new byte[6 << 20];
      new Random(42).nextBytes(big);
      s3.putObject(PutObjectRequest.builder().bucket(bucket).key(p + "big.bin").build(),
          RequestBody.fromInputStream(new java.io.ByteArrayInputStream(big), big.length));
      byte[] bigBack = s3.getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key(p + "big.bin").build())
          .asByteArray();
      check(Arrays.equals(big, bigBack), "PutObject 6 MiB stream + GetObject round trip");

      // 3. multipart: open upload is not an object
      String mpKey = p + "multi.bin";
      String uploadId = s3.createMultipartUpload(
          CreateMultipartUploadRequest.builder().bucket(bucket).key(mpKey).build()).uploadId();
      byte[] part1 = Arrays.copyOfRange(big, 0, 5 << 20);
      byte[] part2 = Arrays.copyOfRange(big, 5 << 20, big.length);
      List<CompletedPart> parts = new ArrayList<>();
      String e1 = s3.uploadPart(UploadPartRequest.builder().bucket(bucket).key(mpKey).uploadId(uploadId)
          .partNumber(1).build(), RequestBody.fromBytes(part1)).eTag();
      parts.add(CompletedPart.builder().partNumber(1).eTag(e1).build());
      String e2 = s3.uploadPart(UploadPartRequest.builder().bucket(bucket).key(mpKey).uploadId(uploadId)
          .partNumber(2).build(), RequestBody.fromBytes(part2)).eTag();
      parts.add(CompletedPart.builder().partNumber(2).eTag(e2).build());
      List<String> during = keys(s3, bucket, p);
      check(!during.contains(mpKey), "open multipart upload is not listed (listed: " + during + ")");
      boolean headMissing;
      try {
        s3.headObject(HeadObjectRequest.builder().bucket(bucket).key(mpKey).build());
        headMissing = false;
      } catch (NoSuchKeyException e) {
        headMissing = true;
      } catch (S3Exception e) {
        headMissing = e.statusCode() == 404;
      }
      check(headMissing, "HeadObject on an open multipart upload's key answers 404");
      var uploads = s3.listMultipartUploads(ListMultipartUploadsRequest.builder().bucket(bucket).prefix(p).build()).uploads();
      check(uploads.stream().anyMatch(u -> u.uploadId().equals(uploadId)), "ListMultipartUploads shows the open upload");
      s3.completeMultipartUpload(CompleteMultipartUploadRequest.builder().bucket(bucket).key(mpKey)
          .uploadId(uploadId).multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()).build());
      check(keys(s3, bucket, p).contains(mpKey), "completed multipart upload is listed");
      byte[] mpBack = s3.getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key(mpKey).build()).asByteArray();
      check(Arrays.equals(big, mpBack), "multipart object content equals its parts");

      // 4. aborted multipart upload leaves nothing
      String abKey = p + "aborted.bin";
      String abId = s3.createMultipartUpload(CreateMultipartUploadRequest.builder().bucket(bucket).key(abKey).build()).uploadId();
      s3.uploadPart(UploadPartRequest.builder().bucket(bucket).key(abKey).uploadId(abId).partNumber(1).build(),
          RequestBody.fromBytes(part1));
      s3.abortMultipartUpload(AbortMultipartUploadRequest.builder().bucket(bucket).key(abKey).uploadId(abId).build());
      check(!keys(s3, bucket, p).contains(abKey), "aborted multipart upload is not listed");

      // 5. clean up
      for (String k : keys(s3, bucket, p)) {
        s3.deleteObject(DeleteObjectRequest.builder().bucket(bucket).key(k).build());
      }
      check(keys(s3, bucket, p).isEmpty(), "DeleteObject removes everything under " + p);
    }
    System.out.println(failures == 0 ? "S3Check: all passed" : "S3Check: " + failures + " failure(s)");
    System.exit(failures == 0 ? 0 : 1);
  }
}
