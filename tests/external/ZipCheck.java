// Reads a zip the way the Java edition's game does (java.util.zip) and prints, for each entry,
// "name<TAB>size<TAB>crc32": once through the central directory (ZipFile) and once through the
// local headers (ZipInputStream, which checks each entry's CRC-32 and sizes as it ends).
// Run with the JDK's source launcher: java ZipCheck.java archive.zip
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.Collections;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

public class ZipCheck {
    static String digest(String name, InputStream in) throws Exception {
        CRC32 crc = new CRC32();
        byte[] buffer = new byte[1 << 16];
        long size = 0;
        for (int n; (n = in.read(buffer)) > 0; size += n) crc.update(buffer, 0, n);
        return name + "\t" + size + "\t" + crc.getValue();
    }

    public static void main(String[] args) throws Exception {
        try (ZipFile zip = new ZipFile(args[0])) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                try (InputStream in = zip.getInputStream(entry)) {
                    System.out.println("central\t" + digest(entry.getName(), in));
                }
            }
        }
        try (ZipInputStream zip = new ZipInputStream(new FileInputStream(args[0]))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                System.out.println("local\t" + digest(entry.getName(), zip));
            }
        }
    }
}
